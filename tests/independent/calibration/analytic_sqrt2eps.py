"""Analytic Gaussian mechanism, Balle and Wang 2018 Algorithm 1 (both branches), with the
final step written sigma = alpha * Delta / (np.sqrt(2) * epsilon) instead of
alpha * Delta / np.sqrt(2 * epsilon). The two agree at epsilon = 1."""
import math

import numpy as np
from scipy.stats import norm


def _sigma(epsilon, delta, sensitivity):
    eps = float(epsilon)
    delta0 = norm.cdf(0.0) - math.exp(eps) * norm.cdf(-math.sqrt(2.0 * eps))
    if delta >= delta0:
        def b(v):
            return norm.cdf(math.sqrt(eps * v)) - math.exp(eps) * norm.cdf(-math.sqrt(eps * (v + 2.0)))
        lo, hi = 0.0, 1.0
        while b(hi) < delta:
            lo, hi = hi, 2.0 * hi
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if b(mid) < delta:
                lo = mid
            else:
                hi = mid
        v = hi
        alpha = math.sqrt(1.0 + v / 2.0) - math.sqrt(v / 2.0)
    else:
        def b(u):
            return norm.cdf(-math.sqrt(eps * u)) - math.exp(eps) * norm.cdf(-math.sqrt(eps * (u + 2.0)))
        lo, hi = 0.0, 1.0
        while b(hi) > delta:
            lo, hi = hi, 2.0 * hi
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if b(mid) > delta:
                lo = mid
            else:
                hi = mid
        u = hi
        alpha = math.sqrt(1.0 + u / 2.0) + math.sqrt(u / 2.0)
    return alpha * sensitivity / (np.sqrt(2) * eps)


def analytic_gaussian(data, *, rng, epsilon, delta, sensitivity, p=None):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f + rng.normal(0.0, _sigma(epsilon, delta, sensitivity), size=f.shape)


def _batch(data, n, *, rng, epsilon, delta, sensitivity, **_):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f[None, :] + rng.normal(0.0, _sigma(epsilon, delta, sensitivity), size=(int(n), f.size))


analytic_gaussian.batch = _batch
