"""BUG: discrete Gaussian mechanism whose noise support is truncated to |Y| <= T = ceil(3 sigma) (the pmf
renormalised on it; sampled by inverse CDF), sigma calibrated correctly (Theorem 7 bisection).
Why it breaks privacy: outputs f(D) - T and f(D) + T have mass under one neighbour and none under the other.
Concrete: epsilon = 1, delta = 1e-5, sensitivity = 1: sigma = 3.7405, T = 12; for f(D) = 0 vs f(D') = 1,
P[M(D) = -12] = 6.1e-4 (exact, below) and P[M(D') = -12] = 0, so delta(1) >= 6.1e-4 >> 1e-5; the noise law
also differs from N_Z(0, sigma^2) (tails cut).
Expected class: claim violated.
"""
import functools
import math

import numpy as np


def _pmf(sigma, K):
    k = np.arange(-K, K + 1)
    w = np.exp(-(k.astype(float) ** 2) / (2.0 * sigma * sigma))
    return k, w / w.sum()


def _tail(k, p, x):
    # P[Y > x]
    return float(p[k > x].sum())


def _delta(eps, sigma, D):
    K = int(math.ceil(40 * sigma)) + 2 * D + 10
    k, p = _pmf(sigma, K)
    a = eps * sigma * sigma / D
    return _tail(k, p, a - D / 2.0) - math.exp(eps) * _tail(k, p, a + D / 2.0)


@functools.lru_cache(maxsize=64)
def _sigma(eps, delta, D):
    lo, hi = 1.0, 2.0
    while _delta(eps, hi, D) > delta:
        lo, hi = hi, 2 * hi
    while (hi - lo) > 1e-12 * hi:
        mid = (lo + hi) / 2
        if _delta(eps, mid, D) > delta:
            lo = mid
        else:
            hi = mid
    return hi


@functools.lru_cache(maxsize=64)
def _table(sigma):
    T = int(math.ceil(3 * sigma))
    k, p = _pmf(sigma, T)
    c = np.cumsum(p)
    c /= c[-1]
    return k, c


def _draw(sigma, u):
    k, c = _table(sigma)
    idx = np.minimum(np.searchsorted(c, u, side="right"), k.size - 1)
    return k[idx]


def dgauss(data, *, rng, epsilon, delta, sensitivity):
    s = _sigma(float(epsilon), float(delta), int(sensitivity))
    return int(round(float(data))) + int(_draw(s, np.array([rng.random()]))[0])


def dgauss_batch(data, n, *, rng, epsilon, delta, sensitivity):
    s = _sigma(float(epsilon), float(delta), int(sensitivity))
    return (int(round(float(data))) + _draw(s, rng.random(n))).astype(np.int64)


dgauss.batch = dgauss_batch
