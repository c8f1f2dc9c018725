"""discrete_gaussian_mechanism, VALID, written differently: another exact sampler of N_Z(0, sigma^2).

The proposal is a discrete Laplace with a REAL scale t = sigma (not CKS's t = floor(sigma) + 1), drawn as
the difference of two i.i.d. geometric variables (numpy's geometric, support {1, 2, ...}, minus one each),
and accepted with probability exp(-(|y| - sigma^2/t)^2 / (2 sigma^2)) = exp(-(|y| - sigma)^2/(2 sigma^2)).
For any t > 0, Lap_Z(t)(y) * accept(y) is proportional to exp(-y^2/(2 sigma^2)), so the output law is
exactly N_Z(0, sigma^2) (up to float rounding of the acceptance probability, ~1e-16 relative).
sigma is calibrated by bisection on Theorem 7's delta, written independently (pmf sums over |k| <= 60 sigma + 60,
float64 with a log-sum-exp normaliser), bracket grown from [1, 2] by doubling, bisection to relative 1e-12.
TRUTH: valid (same law as the spec, up to the calibration tolerance).
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
    t = sigma
    q = 1.0 - math.exp(-1.0 / t)
    while True:
        y = int(rng.geometric(q)) - int(rng.geometric(q))
        acc = math.exp(-((abs(y) - sigma * sigma / t) ** 2) / (2 * sigma * sigma))
        if rng.random() < acc:
            return int(round(float(data))) + y
