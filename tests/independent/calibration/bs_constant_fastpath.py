"""Bounded sum (diffprivlib.tools.sum semantics): clip to [lower, upper], add Lap((upper-lower)/eps).

Constant columns (all records equal, common for sparse or default-filled features) take a fast path:
the sum is n times the common value.
"""
import numpy as np


def _clipped_sum(x, lower, upper):
    if x.size and np.all(x == x[0]):
        return x.size * float(x[0])
    return float(np.clip(x, lower, upper).sum())


def bounded_sum(data, *, rng, epsilon, lower, upper):
    x = np.ravel(np.asarray(data, dtype=float))
    return _clipped_sum(x, lower, upper) + float(rng.laplace(0.0, (upper - lower) / epsilon))


def _batch(data, n, *, rng, epsilon, lower, upper):
    x = np.ravel(np.asarray(data, dtype=float))
    return _clipped_sum(x, lower, upper) + rng.laplace(0.0, (upper - lower) / epsilon, size=n)


bounded_sum.batch = _batch
