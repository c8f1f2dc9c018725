"""Laplace prediction of a gamma-stable learner: A(S, x) + Lap(gamma/eps), fresh noise per query
(seed 002 Theorem 3)."""
import numpy as np


def predict(data, *, rng, epsilon, gamma):
    a = np.asarray(data, dtype=np.float64)
    out = a + rng.laplace(0.0, gamma / epsilon, size=a.shape)
    return float(out) if out.ndim == 0 else out


def _batch(data, N, *, rng, epsilon, gamma):
    a = np.asarray(data, dtype=np.float64)
    return a + rng.laplace(0.0, gamma / epsilon, size=(N,) + a.shape)


predict.batch = _batch
