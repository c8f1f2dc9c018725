"""Analytic Gaussian mechanism (Balle and Wang 2018): sigma is the smallest sigma with
Phi(D/(2s) - eps s/D) - e^eps Phi(-D/(2s) - eps s/D) <= delta (Theorem 8, solved by brentq).
Normal deviates by the classic sum-of-twelve-uniforms generator (mean 6, variance 1)."""
import math

import numpy as np
from scipy.optimize import brentq
from scipy.stats import norm


def _sigma(epsilon, delta, sensitivity):
    def g(s):
        return (norm.cdf(sensitivity / (2 * s) - epsilon * s / sensitivity)
                - math.exp(epsilon) * norm.cdf(-sensitivity / (2 * s) - epsilon * s / sensitivity) - delta)
    return brentq(g, 1e-6 * sensitivity, 1e6 * sensitivity, xtol=1e-14, rtol=1e-14)


def _normals(rng, shape):
    return rng.random((*shape, 12)).sum(axis=-1) - 6.0


def gaussian(data, *, rng, epsilon, delta, sensitivity, **_):
    f = np.asarray(data, dtype=float).ravel()
    return f + _sigma(epsilon, delta, sensitivity) * _normals(rng, f.shape)


def _batch(data, n_runs, *, rng, epsilon, delta, sensitivity, **_):
    f = np.asarray(data, dtype=float).ravel()
    return f + _sigma(epsilon, delta, sensitivity) * _normals(rng, (n_runs, f.size))


gaussian.batch = _batch
