"""Analytic Gaussian mechanism, written from Balle and Wang 2018 (Theorem 8), one call at a time.

sigma is the smallest noise scale with
    Phi(D/(2s) - eps s/D) - e^eps Phi(-D/(2s) - eps s/D) <= delta,
found by bisection on log(sigma) (the left side decreases in s). No batch sampler.
"""

import math
from functools import lru_cache

import numpy as np
from scipy.special import log_ndtr, ndtr


def _delta_of_sigma(s, epsilon, sensitivity):
    a = sensitivity / (2.0 * s) - epsilon * s / sensitivity
    b = -sensitivity / (2.0 * s) - epsilon * s / sensitivity
    return float(ndtr(a) - math.exp(epsilon + float(log_ndtr(b))))


@lru_cache(maxsize=64)
def analytic_sigma(epsilon, delta, sensitivity):
    lo, hi = math.log(sensitivity) - 30.0, math.log(sensitivity) + 30.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _delta_of_sigma(math.exp(mid), epsilon, sensitivity) > delta:
            lo = mid          # too little noise
        else:
            hi = mid
    return math.exp(hi)       # the side that meets delta


def analytic_gaussian(data, *, rng, epsilon, delta, sensitivity, **_ignored):
    f = np.asarray(data, dtype=float)
    sigma = analytic_sigma(float(epsilon), float(delta), float(sensitivity))
    return f + rng.normal(0.0, sigma, size=f.shape)
