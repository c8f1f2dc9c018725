"""Analytic Gaussian mechanism (Balle and Wang 2018): sigma is the smallest sigma with
Phi(D/(2 sigma) - eps sigma/D) - e^eps Phi(-D/(2 sigma) - eps sigma/D) <= delta (Theorem 8), found here
by bisection on log sigma instead of Algorithm 1's B+/B- search; delta(eps) is decreasing in sigma, so
the bisection's upper end is the smallest admissible sigma to within a relative 1e-12 (never below it).
scipy is imported lazily inside the cached calibration (functools.lru_cache across calls). Noise:
rng.normal. Output float64 (p,), batch (N, p). Law: f + N(0, sigma^2 I), the spec's (up to 1e-12 relative
in sigma, on the conservative side)."""
import functools
import math

import numpy as np


@functools.cache
def _sigma(epsilon, delta, sensitivity):
    from scipy.stats import norm  # lazy import

    def dlt(s):
        a = sensitivity / (2.0 * s)
        c = epsilon * s / sensitivity
        # e^eps Phi(-a - c) in log space for stability
        return norm.cdf(a - c) - math.exp(epsilon + norm.logcdf(-a - c))

    lo, hi = 1e-6 * sensitivity, 1.0 * sensitivity
    while dlt(hi) > delta:
        hi *= 2.0
    while dlt(lo) <= delta:
        lo /= 2.0
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if dlt(mid) > delta:
            lo = mid
        else:
            hi = mid
        if hi / lo - 1.0 < 1e-13:
            break
    return hi


def gaussian(data, *, rng, epsilon, delta, sensitivity):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    s = _sigma(float(epsilon), float(delta), float(sensitivity))
    return f + rng.normal(0.0, s, size=f.shape)


def _batch(data, N, *, rng, epsilon, delta, sensitivity):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    s = _sigma(float(epsilon), float(delta), float(sensitivity))
    return f[None, :] + rng.normal(0.0, s, size=(N, f.size))


gaussian.batch = _batch
