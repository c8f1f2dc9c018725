"""Gaussian mechanism: f(D) + N(0, sigma^2 I). The spec audits its exact (Balle-Wang) profile."""
import numpy as np


def gaussian(data, *, rng, sigma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f + sigma * rng.standard_normal(f.shape)


def _batch(data, n, *, rng, sigma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f[None, :] + sigma * rng.standard_normal((n, f.size))


gaussian.batch = _batch
