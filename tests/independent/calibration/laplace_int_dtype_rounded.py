"""Laplace mechanism that keeps integer inputs integer: integer arrays get the noise rounded to an integer.

Truth (privacy bug): the branch is on the input's dtype, not its values. f = np.array([0]) (int64) vs
f' = np.array([1.0]) (float64), at L1 distance 1 = gamma (epsilon = 1): every output on D is an integer,
every output on D' is f' + continuous noise, an integer with probability 0: infinite loss against the
claimed 1. Float inputs get the spec's law.
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma, **_):
    f = np.asarray(data)
    noise = rng.laplace(0.0, gamma / epsilon, size=f.shape)
    if np.issubdtype(f.dtype, np.integer):
        return f + np.rint(noise).astype(f.dtype)
    return f.astype(float) + noise
