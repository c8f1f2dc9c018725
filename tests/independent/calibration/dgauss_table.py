"""Discrete Gaussian mechanism with a precomputed inverse-CDF table sampler.
sigma is calibrated on Theorem 7's delta (bracket + bisection, as diffprivlib does); the noise is
drawn by inverse CDF from a table of N_Z(0, sigma^2) on [-K, K], K = floor(4 sigma) (the mass
outside four sigmas is below 1e-4 and the table stays short)."""
import math

import numpy as np

_cache = {}


def _pmf(sigma, K):
    k = np.arange(-K, K + 1)
    w = np.exp(-(k.astype(float) ** 2) / (2 * sigma * sigma))
    return k, w / w.sum()


def _delta(eps, sigma, sens):
    K = int(math.ceil(60 * sigma)) + sens + 10
    k, p = _pmf(sigma, K)
    a = eps * sigma ** 2 / sens - sens / 2
    b = eps * sigma ** 2 / sens + sens / 2
    return p[k > a].sum() - math.exp(eps) * p[k > b].sum()


def _sigma(eps, delta, sens):
    lo, hi = 1.0, 2.0
    while _delta(eps, hi, sens) > delta:
        lo, hi = hi, 2 * hi
    while (hi - lo) > 1e-12 * hi:
        mid = (lo + hi) / 2
        if _delta(eps, mid, sens) > delta:
            lo = mid
        else:
            hi = mid
    return hi


def _table(epsilon, delta, sensitivity):
    key = (epsilon, delta, sensitivity)
    if key not in _cache:
        sigma = _sigma(epsilon, delta, sensitivity)
        K = int(math.floor(4 * sigma))
        k, p = _pmf(sigma, K)
        cdf = np.cumsum(p)
        cdf[-1] = 1.0
        _cache[key] = (k, cdf)
    return _cache[key]


def discrete_gaussian(data, *, rng, epsilon, delta, sensitivity, **_):
    k, cdf = _table(epsilon, delta, sensitivity)
    y = int(k[np.searchsorted(cdf, rng.random(), side="right")])
    return int(round(float(data))) + y


def _batch(data, n_runs, *, rng, epsilon, delta, sensitivity, **_):
    k, cdf = _table(epsilon, delta, sensitivity)
    y = k[np.searchsorted(cdf, rng.random(n_runs), side="right")]
    return (int(round(float(data))) + y).astype(np.int64)


discrete_gaussian.batch = _batch
