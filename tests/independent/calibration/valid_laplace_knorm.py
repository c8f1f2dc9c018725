"""Laplace mechanism written as the K-norm mechanism for the L1 norm (Hardt and Talwar):
density proportional to exp(-||z||_1 / b), b = gamma/epsilon, sampled as a radius
r ~ Gamma(p + 1, b) times a point uniform in the unit L1 ball (Dirichlet(1,...,1) weights on
p + 1 coordinates with the last dropped, random signs).  exp(-||z||_1/b) factorises, so this is
exactly i.i.d. Lap(b) per coordinate."""
import numpy as np


def _noise(rng, n, p, b):
    r = rng.gamma(shape=p + 1, scale=b, size=(n, 1))
    e = rng.exponential(1.0, size=(n, p + 1))
    y = e[:, :p] / e.sum(axis=1, keepdims=True)
    s = rng.integers(0, 2, size=(n, p)) * 2 - 1
    return r * s * y


def laplace(data, *, rng, epsilon, gamma, **unused):
    f = np.asarray(data, dtype=float).ravel()
    return f + _noise(rng, 1, f.size, gamma / epsilon)[0]


def _batch(data, n, *, rng, epsilon, gamma, **unused):
    f = np.asarray(data, dtype=float).ravel()
    return f + _noise(rng, n, f.size, gamma / epsilon)


laplace.batch = _batch
