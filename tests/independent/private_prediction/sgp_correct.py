"""Gaussian prediction of a gamma-stable learner: A(S,x) + N(0, sigma_G^2),
sigma_G = gamma sqrt(2 ln(1.25/delta))/eps (Dwork-Roth A.1, the corrected form of seed 002 Sec. 3.2.1)."""
import math

import numpy as np


def _sigma(epsilon, delta, gamma):
    return gamma * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon


def predict(data, *, rng, epsilon, delta, gamma):
    a = np.asarray(data, dtype=np.float64)
    out = a + _sigma(epsilon, delta, gamma) * rng.standard_normal(a.shape)
    return float(out) if out.ndim == 0 else out


def _batch(data, N, *, rng, epsilon, delta, gamma):
    a = np.asarray(data, dtype=np.float64)
    return a + _sigma(epsilon, delta, gamma) * rng.standard_normal((N,) + a.shape)


predict.batch = _batch
