"""Discrete Gaussian mechanism (Canonne, Kamath and Steinke 2020), Theorem 7 calibration.

sigma solves delta(epsilon) = delta by plain bisection on a fixed bracket [0.1, 100] (60 halvings:
far below the lattice's resolution; sigma above 100 means an answer that is noise anyway).
Sampler: Algorithm 3 (rejection from Lap_Z(t), t = floor(sigma) + 1), vectorised.
"""
import math

import numpy as np

_LO, _HI = 0.1, 100.0


def _tail(sigma, x):
    K = int(math.ceil(60 * sigma + abs(x) + 10))
    k = np.arange(-K, K + 1)
    w = np.exp(-(k.astype(float) ** 2) / (2 * sigma * sigma))
    return w[k > x].sum() / w.sum()


def _delta(sigma, eps, sens):
    a = eps * sigma * sigma / sens
    return _tail(sigma, a - sens / 2) - math.exp(eps) * _tail(sigma, a + sens / 2)


_CACHE = {}


def sigma_for(eps, delta, sens):
    key = (eps, delta, sens)
    if key not in _CACHE:
        lo, hi = _LO, _HI
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            if _delta(mid, eps, sens) > delta:
                lo = mid
            else:
                hi = mid
        _CACHE[key] = hi
    return _CACHE[key]


def _sample(rng, sigma, n):
    t = math.floor(sigma) + 1
    q = 1.0 - math.exp(-1.0 / t)
    out = np.empty(n, dtype=np.int64)
    todo = np.arange(n)
    while todo.size:
        m = todo.size
        y = rng.geometric(q, size=m) - rng.geometric(q, size=m)
        acc = rng.random(m) < np.exp(-((np.abs(y) - sigma * sigma / t) ** 2) / (2 * sigma * sigma))
        out[todo[acc]] = y[acc]
        todo = todo[~acc]
    return out


def discrete_gaussian(data, *, rng, epsilon, delta, sensitivity):
    return int(float(data)) + int(_sample(rng, sigma_for(epsilon, delta, int(sensitivity)), 1)[0])


def _batch(data, n, *, rng, epsilon, delta, sensitivity):
    return int(float(data)) + _sample(rng, sigma_for(epsilon, delta, int(sensitivity)), n)


discrete_gaussian.batch = _batch
