"""Bounded sum after diffprivlib.tools.sum: LaplaceTruncated(sensitivity=upper - lower,
lower=lower * n, upper=upper * n). Here the [n*lower, n*upper] bounds are applied to the
total before the noise is added ("the sum of n records in [lower, upper] lies in
[n*lower, n*upper]"), instead of clipping every record."""
import numpy as np


def _total(data, lower, upper):
    x = np.asarray(data, dtype=np.float64).ravel()
    n = x.size
    return float(np.clip(x.sum(), n * lower, n * upper))


def dp_sum(data, *, rng, epsilon, lower, upper, n=None):
    s = _total(data, lower, upper)
    return float(s + rng.laplace(0.0, (upper - lower) / epsilon))


def _batch(data, n, *, rng, epsilon, lower, upper, **_):
    s = _total(data, lower, upper)
    return s + rng.laplace(0.0, (upper - lower) / epsilon, size=int(n))


dp_sum.batch = _batch
