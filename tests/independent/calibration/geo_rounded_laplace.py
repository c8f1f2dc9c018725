"""Geometric mechanism for integer queries, as the continuous Laplace mechanism rounded.

f(D) is an integer vector, so rint(f(D) + Lap(Delta/eps)) = f(D) + rint(Lap(Delta/eps)):
post-processing of the Laplace mechanism, hence eps-DP.
"""
import numpy as np


def geometric(data, *, rng, epsilon, sensitivity):
    f = np.ravel(np.asarray(data, dtype=float))
    return np.rint(f + rng.laplace(0.0, sensitivity / epsilon, size=f.shape)).astype(np.int64)


def _batch(data, n, *, rng, epsilon, sensitivity):
    f = np.ravel(np.asarray(data, dtype=float))
    return np.rint(f[None, :] + rng.laplace(0.0, sensitivity / epsilon, size=(n, f.size))).astype(np.int64)


geometric.batch = _batch
