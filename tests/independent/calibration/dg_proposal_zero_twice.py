"""discrete_gaussian_mechanism, BUG: the discrete-Laplace proposal of CKS Algorithm 3 is drawn as
magnitude X ~ Geom (P[X = x] proportional to exp(-x/t), x >= 0) times a random sign, WITHOUT rejecting
the (negative sign, X = 0) draw (CKS Algorithm 2's 'if B = 1 and Y = 0, reject'). Zero is then proposed
twice as often as it should be; the Gaussian acceptance step does not undo it.

Kind: a classic sampler slip (missing '-0' rejection): the noise law has a doubled atom at 0.

TRUTH (exact law): P[Y = 0] = 2/(Z + 1), P[Y = k] = exp(-k^2/(2 sigma^2))/(Z + 1) for k != 0,
Z = sum_k exp(-k^2/(2 sigma^2)). At the defaults (eps=1, delta=1e-5, Delta=1, sigma=3.7405):
P[Y=0] = 0.1928 instead of 0.1067 (see the numbers printed by truth_b4.py in this folder).
Privacy on the shift pair f=0 vs f=1: exact hockey-stick delta(eps') computed in truth_b4.py
(the paper's point (1, 1e-5) and the curve points at eps' = 0.25, 0.5, 0.75).
Sigma calibration is correct (same bisection as v3).
"""
import math

import numpy as np

_CACHE = {}


def _delta(eps, sigma, sens):
    L = int(math.ceil(60 * sigma)) + 60 + int(sens)
    k = np.arange(-L, L + 1, dtype=float)
    logw = -k * k / (2 * sigma * sigma)
    p = np.exp(logw - logw.max())
    p /= p.sum()
    a = eps * sigma * sigma / sens - sens / 2.0
    b = eps * sigma * sigma / sens + sens / 2.0
    return p[k > a].sum() - math.exp(eps) * p[k > b].sum()


def _sigma(eps, delta, sens):
    key = (eps, delta, sens)
    if key not in _CACHE:
        lo, hi = 1.0, 2.0
        while _delta(eps, hi, sens) > delta:
            lo, hi = hi, 2 * hi
        while hi - lo > 1e-12 * hi:
            mid = (lo + hi) / 2
            if _delta(eps, mid, sens) > delta:
                lo = mid
            else:
                hi = mid
        _CACHE[key] = hi
    return _CACHE[key]


def dgauss(data, *, rng, epsilon, delta, sensitivity):
    sigma = _sigma(float(epsilon), float(delta), int(sensitivity))
    t = math.floor(sigma) + 1
    q = 1.0 - math.exp(-1.0 / t)
    while True:
        x = int(rng.geometric(q)) - 1          # magnitude, P[x] ~ exp(-x/t), x >= 0
        s = 1 if rng.random() < 0.5 else -1    # BUG: (s = -1, x = 0) is not rejected
        y = s * x
        acc = math.exp(-((abs(y) - sigma * sigma / t) ** 2) / (2 * sigma * sigma))
        if rng.random() < acc:
            return int(round(float(data))) + y
