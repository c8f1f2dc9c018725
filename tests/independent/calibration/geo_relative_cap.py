"""Geometric mechanism with a relative-error cap.

Two-sided geometric noise (difference of two geometric variables, alpha =
exp(-epsilon/sensitivity)), then the noise is capped at the size of the count
itself, |Z_i| <= |f_i|: "a released count is never negative and never more than
double the true one".
"""
import numpy as np


def _noise(shape, rng, epsilon, sensitivity):
    q = 1.0 - np.exp(-epsilon / sensitivity)
    return rng.geometric(q, size=shape) - rng.geometric(q, size=shape)


def geometric(data, *, rng, epsilon, sensitivity):
    f = np.asarray(data, dtype=np.float64).astype(np.int64)
    z = _noise(f.shape, rng, epsilon, sensitivity)
    cap = np.abs(f)
    return (f + np.clip(z, -cap, cap)).astype(np.int64)


def _batch(data, n, *, rng, epsilon, sensitivity):
    f = np.asarray(data, dtype=np.float64).astype(np.int64)
    z = _noise((n, *f.shape), rng, epsilon, sensitivity)
    cap = np.abs(f)
    return (f + np.clip(z, -cap, cap)).astype(np.int64)


geometric.batch = _batch
