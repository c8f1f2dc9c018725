"""Laplace mechanism (Lemma 2.6 of seed 000): f(D) + Lap(gamma/epsilon)^p. Written from the paper."""
import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f + rng.laplace(loc=0.0, scale=gamma / epsilon, size=f.shape)


def _batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f[None, :] + rng.laplace(loc=0.0, scale=gamma / epsilon, size=(n, f.size))


laplace.batch = _batch
