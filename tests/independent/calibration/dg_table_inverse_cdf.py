"""Discrete Gaussian mechanism (Canonne-Kamath-Steinke 2020, Theorem 7 calibration), sampled by a
table inverse-CDF instead of Algorithm 3's rejection sampler.

sigma: root of Theorem 7's delta(epsilon; sigma, Delta) = delta, by Brent's method on a bracket
grown from [1, 2] (the same root diffprivlib's bisection finds, to ~1e-12 relative).
Sampler: |Y| from the exact (double precision) pmf of |Y| on 0..K, K = ceil(40 sigma) + 2
(the mass beyond K is below exp(-800)), then a fair sign for |Y| > 0. This is N_Z(0, sigma^2)
to within float rounding of the table. Output: Python int (batch: int64 array).
"""
import math

import numpy as np
from scipy.optimize import brentq

_CACHE = {}


def _delta(sigma, epsilon, sens):
    K = int(math.ceil(40 * sigma)) + 2 + int(abs(epsilon * sigma * sigma / sens)) + sens
    k = np.arange(-K, K + 1)
    w = np.exp(-(k.astype(float) ** 2) / (2 * sigma * sigma))
    Z = w.sum()
    a = epsilon * sigma * sigma / sens - sens / 2.0
    b = epsilon * sigma * sigma / sens + sens / 2.0
    return (w[k > a].sum() - math.exp(epsilon) * w[k > b].sum()) / Z


def _sigma(epsilon, delta, sens):
    key = (epsilon, delta, sens)
    if key not in _CACHE:
        def f(s):
            return _delta(s, epsilon, sens) - delta
        lo, hi = 1.0, 2.0
        while f(hi) > 0:
            lo, hi = hi, hi * 2
        if f(lo) < 0:
            lo = 1e-3
        s = brentq(f, lo, hi, xtol=1e-14, rtol=1e-14, maxiter=500)
        K = int(math.ceil(40 * s)) + 2
        k = np.arange(0, K + 1)
        w = np.exp(-(k.astype(float) ** 2) / (2 * s * s))
        pa = w * np.where(k == 0, 1.0, 2.0)
        cdf = np.cumsum(pa / pa.sum())
        cdf[-1] = 1.0
        _CACHE[key] = (s, cdf)
    return _CACHE[key]


def _noise(rng, epsilon, delta, sens, size):
    s, cdf = _sigma(epsilon, delta, int(sens))
    u = rng.random(size)
    mag = np.searchsorted(cdf, u, side="right")
    sign = np.where(rng.random(size) < 0.5, -1, 1)
    return (mag * sign).astype(np.int64)


def dgauss(data, *, rng, epsilon, delta, sensitivity, **_):
    f = int(round(float(data)))
    return int(f + _noise(rng, epsilon, delta, sensitivity, None))


def _batch(data, n, *, rng, epsilon, delta, sensitivity, **_):
    f = int(round(float(data)))
    return f + _noise(rng, epsilon, delta, sensitivity, n)


dgauss.batch = _batch
