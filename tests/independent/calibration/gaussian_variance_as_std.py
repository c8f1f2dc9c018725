"""Gaussian mechanism that passes the variance where numpy wants the standard deviation:
rng.normal(0, sigma**2).

PRIVACY BUG for sigma < 1: the noise std is sigma^2. At the spec's second audit point sigma = 0.5
(sensitivity 1, epsilon = 1) the std is 0.25, mu = 4, exact delta(1) = Phi(2 - 0.25) - e Phi(-2.25)
= 0.927 against the claimed delta_exact(sigma = 0.5) = 0.510.
At sigma = 1 (default) identical to the spec; at sigma = 2 (first audit point) more noise (std 4).
"""
import numpy as np


def gaussian(data, *, rng, sigma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f + rng.normal(0.0, sigma ** 2, size=f.shape)


def _batch(data, n, *, rng, sigma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f[None, :] + rng.normal(0.0, sigma ** 2, size=(n, f.size))


gaussian.batch = _batch
