"""discrete_gaussian_mechanism -- BUG (privacy; CALL PATTERN): sigma calibrated ONCE per process.

The calibration (Theorem 7 bisection, correct) is expensive, so the programmer memoises it in a
mutable default argument `_state={}` -- but forgets to key it on (epsilon, delta, sensitivity):
the FIRST call's sigma is reused by every later call in the process, whatever parameters the
later call asks for.  Sampler: CKS Algorithm 3 (t = floor(sigma)+1), exact.  fn.batch shares
the same memo.
TRUTH: a single parameter point per process is exactly correct (sigma 3.74048 at the defaults).
Call pattern: mech(f, epsilon=1, delta=1e-5, sensitivity=1) first, then any call with
(epsilon=1, delta=1e-5, sensitivity=4) (correct sigma 14.9244; got 3.74048):
f=0 vs f'=4 -> exact Theorem-7 profile of N_Z(0, 3.74048^2) at Delta=4: delta(1) = 0.1531
(claimed 1e-5); delta(0.25) = 0.334 (claimed 0.0279); eps at delta=1e-5 is 4.75.
The spec's second audit point (0.5, 1e-5, 3) after a default call: sigma 3.74 instead of
21.097.  In the other order (first call at (0.5,1e-5,3)) the defaults get sigma 21.097: far MORE
noise (private, law differs: Fact DG1).
"""
import math

import numpy as np


def _delta(eps, sigma, sens):
    K = int(math.ceil(40 * sigma + sens + eps * sigma * sigma / sens)) + 2
    ks = np.arange(-K, K + 1)
    w = np.exp(-(ks.astype(float) ** 2) / (2 * sigma * sigma))
    Z = w.sum()
    a = eps * sigma * sigma / sens - sens / 2.0
    b = eps * sigma * sigma / sens + sens / 2.0
    return w[ks > a].sum() / Z - math.exp(eps) * w[ks > b].sum() / Z


def _calibrate(eps, delta, sens):
    lo, hi = 1.0, 2.0
    while _delta(eps, hi * sens, sens) > delta:
        lo, hi = hi, 2 * hi
    lo, hi = lo * sens, hi * sens
    while (hi - lo) > 1e-12 * hi:
        mid = 0.5 * (lo + hi)
        if _delta(eps, mid, sens) > delta:
            lo = mid
        else:
            hi = mid
    return hi


def _sigma(eps, delta, sens, _state={}):
    if "sigma" not in _state:          # BUG: not keyed on the parameters
        _state["sigma"] = _calibrate(eps, delta, sens)
    return _state["sigma"]


def _dlap(t, rng, size):
    p = 1 - math.exp(-1.0 / t)
    return (rng.geometric(p, size) - rng.geometric(p, size)).astype(np.int64)


def _dgauss(sigma, rng, size):
    t = math.floor(sigma) + 1
    s2 = sigma * sigma
    out = np.empty(0, dtype=np.int64)
    while out.size < size:
        m = max(16, int(1.6 * (size - out.size)) + 16)
        y = _dlap(t, rng, m)
        acc = rng.random(m) < np.exp(-((np.abs(y) - s2 / t) ** 2) / (2 * s2))
        out = np.concatenate([out, y[acc]])
    return out[:size]


def mech(data, *, rng, epsilon=1.0, delta=1e-5, sensitivity=1):
    s = _sigma(float(epsilon), float(delta), int(sensitivity))
    return int(round(float(data))) + int(_dgauss(s, rng, 1)[0])


def _batch(data, n, *, rng, epsilon=1.0, delta=1e-5, sensitivity=1):
    s = _sigma(float(epsilon), float(delta), int(sensitivity))
    return int(round(float(data))) + _dgauss(s, rng, n)


mech.batch = _batch
