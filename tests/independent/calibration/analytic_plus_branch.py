"""Analytic Gaussian mechanism (Balle & Wang 2018, Algorithm 1), implemented with only the
B+ branch: solve B+(v) = delta for v >= 0 by bisection, alpha = sqrt(1 + v/2) + sqrt(v/2),
sigma = alpha * Delta / sqrt(2 epsilon).
BUG: for delta < delta_0 the equation B+(v) = delta has no root (B+ >= delta_0); the
bracket search clamps at v = 0, giving sigma = Delta/sqrt(2 epsilon) instead of the B-
branch's much larger sigma.
"""
import math

import numpy as np
from scipy.stats import norm


def _bplus(v, eps):
    return norm.cdf(math.sqrt(eps * v)) - math.exp(eps) * norm.cdf(-math.sqrt(eps * (v + 2.0)))


def _sigma(eps, delta, sens):
    lo, hi = 0.0, 1.0
    while _bplus(hi, eps) < delta and hi < 1e12:
        lo, hi = hi, hi * 2.0
    if _bplus(lo, eps) >= delta:      # root at or below the bracket's left end: take v = lo
        v = lo
    else:
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if _bplus(mid, eps) < delta:
                lo = mid
            else:
                hi = mid
        v = hi
    alpha = math.sqrt(1.0 + v / 2.0) + math.sqrt(v / 2.0)
    return alpha * sens / math.sqrt(2.0 * eps)


def analytic_gaussian(data, *, rng, epsilon, delta, sensitivity, **_unused):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    s = _sigma(epsilon, delta, sensitivity)
    return f + rng.normal(0.0, s, size=f.shape)


def _batch(data, n, *, rng, epsilon, delta, sensitivity, **_unused):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    s = _sigma(epsilon, delta, sensitivity)
    return f + rng.normal(0.0, s, size=(n, f.size))


analytic_gaussian.batch = _batch
