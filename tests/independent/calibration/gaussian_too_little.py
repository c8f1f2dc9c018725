"""Gaussian mechanism with standard deviation sigma/1.5.

PRIVACY BUG: mu = 1.5*sensitivity/sigma. At the default (sigma = sensitivity = epsilon = 1) the exact
delta(1) = Phi(0.75 - 1/1.5) - e Phi(-0.75 - 1/1.5) = 0.320 against the claimed 0.127.
"""
import numpy as np


def gaussian(data, *, rng, sigma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f + (sigma / 1.5) * rng.standard_normal(f.shape)


def _batch(data, n, *, rng, sigma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f[None, :] + (sigma / 1.5) * rng.standard_normal((n, f.size))


gaussian.batch = _batch
