"""Discrete Gaussian mechanism, written from Canonne, Kamath and Steinke 2020, one call at a time.

sigma: bisection on Theorem 7's delta(eps) = P[Y > eps s^2/D - D/2] - e^eps P[Y > eps s^2/D + D/2],
Y ~ N_Z(0, s^2) (decreasing in s), to the smallest s that meets delta.
Sampler: Algorithm 3 (rejection from a discrete Laplace of scale t = floor(s) + 1, accepting Y with
probability exp(-(|Y| - s^2/t)^2 / (2 s^2))); the discrete Laplace as the difference of two
geometric counts with ratio e^(-1/t). No batch sampler.
"""

import math
from functools import lru_cache

import numpy as np


def _tail_delta(s, epsilon, sensitivity):
    half = int(math.ceil(40.0 * s)) + 2 * int(sensitivity) + 10
    k = np.arange(-half, half + 1, dtype=float)
    w = np.exp(-k * k / (2.0 * s * s))
    w /= w.sum()
    x1 = epsilon * s * s / sensitivity - sensitivity / 2.0
    x2 = epsilon * s * s / sensitivity + sensitivity / 2.0
    return float(w[k > x1].sum() - math.exp(epsilon) * w[k > x2].sum())


@lru_cache(maxsize=64)
def discrete_sigma(epsilon, delta, sensitivity):
    lo, hi = 1e-3, 1e4 * sensitivity
    for _ in range(100):
        mid = math.sqrt(lo * hi)
        if _tail_delta(mid, epsilon, sensitivity) > delta:
            lo = mid
        else:
            hi = mid
    return hi


def _discrete_laplace(rng, t):
    p = 1.0 - math.exp(-1.0 / t)          # success probability; counts of failures differ
    return int(rng.geometric(p)) - int(rng.geometric(p))


def _discrete_gaussian(rng, s):
    t = math.floor(s) + 1
    while True:
        y = _discrete_laplace(rng, t)
        if rng.random() < math.exp(-((abs(y) - s * s / t) ** 2) / (2.0 * s * s)):
            return y


def discrete_gaussian(data, *, rng, epsilon, delta, sensitivity, **_ignored):
    s = discrete_sigma(float(epsilon), float(delta), int(sensitivity))
    return int(round(float(data))) + _discrete_gaussian(rng, s)
