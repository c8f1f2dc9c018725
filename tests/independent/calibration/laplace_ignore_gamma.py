"""Laplace mechanism that forgets the sensitivity: noise Lap(1/epsilon) whatever gamma is.

PRIVACY BUG: for a shift of gamma in one coordinate the privacy loss is gamma*epsilon. At the
spec's audit point epsilon = 0.5, gamma = 3 the loss is 1.5 (3x the claim 0.5). Identical to the
spec at the default gamma = 1.
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f + rng.laplace(0.0, 1.0 / epsilon, size=f.shape)


def _batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f[None, :] + rng.laplace(0.0, 1.0 / epsilon, size=(n, f.size))


laplace.batch = _batch
