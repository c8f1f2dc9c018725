"""Agnostic private prediction (seed 002 Corollary 1): v = c_1/r, xi ~ Lap(1/(r eps)), output 1 with
probability clip(v + xi, 0, 1) (randomized rounding); r = c_0 + c_1."""
import numpy as np


def predict(data, *, rng, epsilon):
    c = np.asarray(data).reshape(-1)
    r = int(c[0]) + int(c[1])
    p = min(1.0, max(0.0, int(c[1]) / r + rng.laplace(0.0, 1.0 / (r * epsilon))))
    return int(rng.random() < p)


def _batch(data, N, *, rng, epsilon):
    c = np.asarray(data).reshape(-1)
    r = int(c[0]) + int(c[1])
    p = np.clip(int(c[1]) / r + rng.laplace(0.0, 1.0 / (r * epsilon), size=N), 0.0, 1.0)
    return (rng.random(N) < p).astype(np.int8)


predict.batch = _batch
