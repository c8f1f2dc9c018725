"""Laplace mechanism with a 'sparse' fast path: only the non-zero answers are noised
(a histogram/count vector is mostly zeros; storing and noising only the non-zeros is
the classic scipy.sparse optimisation).  Exact-zero answers are returned as exact 0.0."""
import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float).reshape(-1)
    out = f.copy()
    nz = np.flatnonzero(f)
    out[nz] = f[nz] + rng.laplace(0.0, gamma / epsilon, size=nz.size)
    return out


def _batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float).reshape(-1)
    out = np.repeat(f[None, :], n, axis=0)
    nz = np.flatnonzero(f)
    out[:, nz] = f[nz][None, :] + rng.laplace(0.0, gamma / epsilon, size=(n, nz.size))
    return out


laplace.batch = _batch
