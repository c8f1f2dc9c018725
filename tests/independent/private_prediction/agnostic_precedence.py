"""Agnostic private prediction (paper 002, Corollary 1): average of r Boolean teachers,
v = c1/r, plus Lap(1/(r eps)), then randomised rounding of v + xi clipped to [0, 1]."""
import numpy as np


def _p_scale(data, epsilon):
    c0, c1 = int(data[0]), int(data[1])
    r = c0 + c1
    v = c1 / r
    scale = 1 / r * epsilon          # Laplace scale 1/(r eps)
    return v, scale


def predict(data, *, rng, epsilon, **_):
    v, scale = _p_scale(data, epsilon)
    p = min(1.0, max(0.0, v + rng.laplace(0.0, scale)))
    return int(rng.random() < p)


def _batch(data, n, *, rng, epsilon, **_):
    v, scale = _p_scale(data, epsilon)
    p = np.clip(v + rng.laplace(0.0, scale, size=n), 0.0, 1.0)
    return (rng.random(n) < p).astype(np.int8)


predict.batch = _batch
