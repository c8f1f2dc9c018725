"""Analytic Gaussian mechanism (Balle and Wang) -- VALID VARIANT: own root finder, sigma rounded UP to 4
significant digits.

sigma solves Balle and Wang's Theorem 8, Phi(D/(2s) - eps s/D) - e^eps Phi(-D/(2s) - eps s/D) = delta, by
Brent's method on the exact expression (the second term in log space), and is then rounded up to 4
significant digits before use ("publish a round, never smaller, sigma"): 3.73063 -> 3.731 at the default.
A larger sigma only lowers delta(epsilon) (the profile is decreasing in sigma), and the relative change,
below 1e-3 by construction and 1e-4 at the audit points, moves the tail P[Z > sigma] by about 2.4e-5 at
most -- far below what 10^7 samples resolve.  With a .batch.

TRUTH: (epsilon, delta)-DP with delta(epsilon) <= the claimed delta at every point (sigma >= the exact
analytic sigma); the law N(f, sigma'^2 I) with sigma'/sigma - 1 in [0, 1e-3): must pass.
sigma' at the audit points: (1, 1e-5, 1) 3.731 (analytic 3.730633); (3, 1e-5, 2) and (0.5, 1e-6, 1) see
the author's script, not kept.
"""
import functools
import math

import numpy as np
from scipy.optimize import brentq
from scipy.special import log_ndtr, ndtr


def _bw_delta(sigma, eps, sens):
    a = sens / (2.0 * sigma)
    b = eps * sigma / sens
    return float(ndtr(a - b) - math.exp(eps + float(log_ndtr(-a - b))))


@functools.lru_cache(maxsize=64)
def _sigma(eps, delta, sens):
    lo, hi = sens, sens
    while _bw_delta(hi, eps, sens) > delta:
        hi *= 2.0
    while _bw_delta(lo, eps, sens) < delta:
        lo /= 2.0
    s = brentq(lambda x: _bw_delta(x, eps, sens) - delta, lo, hi, xtol=1e-15, rtol=1e-15, maxiter=500)
    step = 10.0 ** (math.floor(math.log10(s)) - 3)
    return math.ceil(s / step) * step


def gaussian(data, *, rng, epsilon, delta, sensitivity, **_):
    f = np.asarray(data, dtype=float)
    sigma = _sigma(float(epsilon), float(delta), float(sensitivity))
    return f + sigma * rng.standard_normal(size=f.shape)


def gaussian_batch(data, n, *, rng, epsilon, delta, sensitivity, **_):
    f = np.asarray(data, dtype=float)
    sigma = _sigma(float(epsilon), float(delta), float(sensitivity))
    return f + sigma * rng.standard_normal(size=(n, *f.shape))


gaussian.batch = gaussian_batch
