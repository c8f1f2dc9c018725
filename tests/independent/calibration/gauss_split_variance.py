"""Gaussian mechanism for a p-dimensional answer. The total noise variance sigma^2 is
shared out over the coordinates ("so that E||noise||^2 = sigma^2 whatever p is"):
each coordinate gets N(0, sigma^2/p). Exact for p = 1."""
import numpy as np


def gaussian(data, *, rng, sigma, sensitivity=None, epsilon=None, delta_target=None, p=None, beta=None):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f + rng.normal(0.0, sigma, size=f.shape) / np.sqrt(f.size)


def _batch(data, n, *, rng, sigma, **_):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f[None, :] + rng.normal(0.0, sigma, size=(int(n), f.size)) / np.sqrt(f.size)


gaussian.batch = _batch
