"""Laplace mechanism that rounds the NOISE (not the output) to a 1/64 grid, 'to defeat
floating-point attacks' (a misreading of Mironov 2012's snapping).

PRIVACY BUG: the output minus the grid lies on f(D) + Z/64, so the output's residue mod 1/64
reveals the fractional part of f(D) exactly: for f(D) = 0 and f(D') = 1/128 (|shift| <= gamma)
the two output supports are disjoint, infinite loss. On shifts that are multiples of 1/64 (e.g.
the stress shift gamma = 1) it behaves like a discretised Laplace and loses nothing measurable.
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    z = rng.laplace(0.0, gamma / epsilon, size=f.shape)
    return f + np.round(z * 64.0) / 64.0


def _batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    z = rng.laplace(0.0, gamma / epsilon, size=(n, f.size))
    return f[None, :] + np.round(z * 64.0) / 64.0


laplace.batch = _batch
