"""Laplace mechanism whose release is snapped to a fixed decimal grid of 0.001.

The snap g(y) = round(1000*y)/1000 is a fixed function of the noisy value y = f + Lap(gamma/eps),
applied identically whatever f is: post-processing, so the release is epsilon-DP.
"""
import numpy as np

GRID = 1000.0


def _snap(y):
    return np.round(np.asarray(y, dtype=float) * GRID) / GRID


def laplace(data, *, rng, epsilon, gamma, p=None, beta=None):
    f = np.asarray(data, dtype=float).reshape(-1)
    y = f + rng.laplace(0.0, gamma / epsilon, size=f.shape)
    return _snap(y)


def _batch(data, n, *, rng, epsilon, gamma, p=None, beta=None):
    f = np.asarray(data, dtype=float).reshape(-1)
    y = f + rng.laplace(0.0, gamma / epsilon, size=(n, f.size))
    return _snap(y)


laplace.batch = _batch
