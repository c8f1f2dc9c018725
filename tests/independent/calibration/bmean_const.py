"""Bounded mean (diffprivlib.tools.mean style) with a 'constant column' shortcut.

When every record is identical the mean is that value, so the code skips the
clip-and-average step. The shortcut returns the UNCLIPPED value, which breaks
the sensitivity bound (upper-lower)/n whenever the common value is out of range.
"""
import numpy as np


def _center(x, lower, upper):
    if x.size and np.all(x == x[0]):          # constant data: the mean is the value
        return float(x[0])
    return float(np.clip(x, lower, upper).mean())


def bounded_mean(data, *, rng, epsilon, lower, upper, **_):
    x = np.asarray(data, dtype=float).ravel()
    b = (upper - lower) / (x.size * epsilon)
    return _center(x, lower, upper) + float(rng.laplace(0.0, b))


def _batch(data, n, *, rng, epsilon, lower, upper, **_):
    x = np.asarray(data, dtype=float).ravel()
    b = (upper - lower) / (x.size * epsilon)
    return _center(x, lower, upper) + rng.laplace(0.0, b, size=n)


bounded_mean.batch = _batch
