"""Geometric mechanism for counts, with a non-negativity clamp.

Counts cannot be negative, so a coordinate whose exact count is 0 is released as
max(0, 0 + Z). The clamp is applied only where the TRUE count is 0 (the code
thinks of it as 'a zero count can only go up'), which is data-dependent.
Noise: difference of two Geometric(1 - alpha) variables = two-sided geometric.
"""
import numpy as np


def _release(f, Z):
    out = f + Z
    return np.where(f == 0, np.maximum(out, 0), out)


def geometric(data, *, rng, epsilon, sensitivity, **_):
    f = np.asarray(data, dtype=float).astype(np.int64)
    alpha = np.exp(-epsilon / sensitivity)
    Z = rng.geometric(1.0 - alpha, size=f.shape) - rng.geometric(1.0 - alpha, size=f.shape)
    return _release(f, Z).astype(np.int64)


def _batch(data, n, *, rng, epsilon, sensitivity, **_):
    f = np.asarray(data, dtype=float).astype(np.int64)
    alpha = np.exp(-epsilon / sensitivity)
    shp = (n, *f.shape)
    Z = rng.geometric(1.0 - alpha, size=shp) - rng.geometric(1.0 - alpha, size=shp)
    return _release(f[None, ...], Z).astype(np.int64)


geometric.batch = _batch
