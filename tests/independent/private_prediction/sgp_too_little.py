"""Gaussian prediction with 1.5x too little noise: std sigma_G/1.5 (a sqrt(ln(1/delta)) in place of
sqrt(2 ln(1.25/delta))... rounded the wrong way).

PRIVACY BUG: at the default eps = 0.5, delta = 1e-5, gamma = 1: sigma = 9.69/1.5 = 6.46, mu = 0.155,
exact delta(0.5) = Phi(mu/2 - 0.5/mu) - e^0.5 Phi(-mu/2 - 0.5/mu) = 3.3e-5 > 1e-5 (the spec's own
mechanism: 1.6e-8).
"""
import math

import numpy as np


def predict(data, *, rng, epsilon, delta, gamma):
    s = gamma * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon / 1.5
    a = np.asarray(data, dtype=np.float64)
    out = a + s * rng.standard_normal(a.shape)
    return float(out) if out.ndim == 0 else out


def _batch(data, N, *, rng, epsilon, delta, gamma):
    s = gamma * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon / 1.5
    a = np.asarray(data, dtype=np.float64)
    return a + s * rng.standard_normal((N,) + a.shape)


predict.batch = _batch
