"""Bounded sum (diffprivlib.tools.sum) with diffprivlib's integer path chosen by the values.

diffprivlib's tools.sum uses GeometricTruncated for integer dtypes and LaplaceTruncated
otherwise. The records arrive as float64 here, so the integer path is chosen when every clipped
record is integral (and the bounds are integers): sum + two-sided geometric noise with
alpha = exp(-epsilon/(upper - lower)) -- epsilon-DP between integer datasets -- else
sum + Lap((upper - lower)/epsilon). An integral dataset always releases an integer, its
neighbour with one record at 0.5 never does.
"""
import numpy as np


def _int_path(x, lower, upper):
    return bool(np.all(x == np.floor(x))) and float(lower).is_integer() and float(upper).is_integer()


def _geo(rng, alpha, size=None):
    q = 1.0 - alpha
    return rng.geometric(q, size=size) - rng.geometric(q, size=size)


def bounded_sum(data, *, rng, epsilon, lower, upper, n=None, **_):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), lower, upper)
    if _int_path(x, lower, upper):
        return float(int(round(x.sum())) + int(_geo(rng, np.exp(-epsilon / (upper - lower)))))
    return float(x.sum() + rng.laplace(0.0, (upper - lower) / epsilon))


def _batch(data, n, *, rng, epsilon, lower, upper, **_):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), lower, upper)
    if _int_path(x, lower, upper):
        return (int(round(x.sum())) + _geo(rng, np.exp(-epsilon / (upper - lower)), size=n)).astype(float)
    return x.sum() + rng.laplace(0.0, (upper - lower) / epsilon, size=n)


bounded_sum.batch = _batch


def bounded_sum_default(data, *, rng):
    """Ad-hoc audit helper: the spec's defaults (epsilon = 1, bounds [0, 1])."""
    return bounded_sum(data, rng=rng, epsilon=1.0, lower=0.0, upper=1.0)


def _batch_default(data, n, *, rng):
    return _batch(data, n, rng=rng, epsilon=1.0, lower=0.0, upper=1.0)


bounded_sum_default.batch = _batch_default
