"""Bounded mean with clipping; integer-valued data get the geometric mechanism.

diffprivlib dispatches on dtype (GeometricTruncated for integer arrays in tools.sum). The data
here always arrive as float64, so this version dispatches on the *values*: if every clipped
record is integral (and the bounds are integers) it releases (sum + Z) / n with Z two-sided
geometric, alpha = exp(-epsilon / (upper - lower)) -- epsilon-DP among integer datasets --
and otherwise mean + Lap((upper - lower) / (n epsilon)). The branch taken is visible in the
output: an integer dataset always yields a multiple of 1/n, a non-integer one almost never.
"""
import numpy as np


def _is_int_data(x, lower, upper):
    return bool(np.all(x == np.floor(x))) and float(lower).is_integer() and float(upper).is_integer()


def _two_sided_geometric(rng, alpha, size=None):
    q = 1.0 - alpha
    return rng.geometric(q, size=size) - rng.geometric(q, size=size)


def bounded_mean(data, *, rng, epsilon, lower, upper, n=None, **_):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), lower, upper)
    m = x.size
    if _is_int_data(x, lower, upper):
        alpha = np.exp(-epsilon / (upper - lower))
        s = int(round(x.sum()))
        return float((s + int(_two_sided_geometric(rng, alpha))) / m)
    return float(x.mean() + rng.laplace(0.0, (upper - lower) / (m * epsilon)))


def _batch(data, n, *, rng, epsilon, lower, upper, **_):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), lower, upper)
    m = x.size
    if _is_int_data(x, lower, upper):
        alpha = np.exp(-epsilon / (upper - lower))
        s = int(round(x.sum()))
        return (s + _two_sided_geometric(rng, alpha, size=n)).astype(float) / m
    return x.mean() + rng.laplace(0.0, (upper - lower) / (m * epsilon), size=n)


bounded_mean.batch = _batch


def bounded_mean_default(data, *, rng):
    """Ad-hoc audit helper: bounded_mean at the spec's defaults (epsilon=1, bounds [0, 1])."""
    return bounded_mean(data, rng=rng, epsilon=1.0, lower=0.0, upper=1.0)


def _batch_default(data, n, *, rng):
    return _batch(data, n, rng=rng, epsilon=1.0, lower=0.0, upper=1.0)


bounded_mean_default.batch = _batch_default
