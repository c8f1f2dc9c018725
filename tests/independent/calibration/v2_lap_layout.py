"""Laplace mechanism with unusual but value-exact memory layouts: the single run is returned as a
big-endian float64 array ('>f8'); the batch as a Fortran-ordered (column-major), big-endian array of
shape (n, p). Values are exactly f + Lap(gamma/epsilon)."""
import numpy as np


def laplace(data, *, rng, epsilon, gamma, **_unused):
    f = np.asarray(data, dtype=float).reshape(-1)
    y = f + rng.laplace(0.0, gamma / epsilon, size=f.shape)
    return y.astype(">f8")


def _batch(data, n, *, rng, epsilon, gamma, **_unused):
    f = np.asarray(data, dtype=float).reshape(-1)
    y = f[None, :] + rng.laplace(0.0, gamma / epsilon, size=(n, f.size))
    return np.asfortranarray(y.astype(">f8"))


laplace.batch = _batch
