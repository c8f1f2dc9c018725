"""Soft majority (paper 002, Theorem 1) by a noisy threshold: with Z ~ Logistic(0, 1),
Pr[Z < eps*nu/2] = 1/(1 + exp(-eps*nu/2)) = exp(eps*nu/2)/(1 + exp(eps*nu/2)),
so b = 1[Z < eps*nu/2] has exactly the soft-majority law (Z = eps*nu/2 has probability 0) and no
exponential is ever evaluated. Randomness from a child generator seeded from rng.
"""
import math

import numpy as np


def _votes(data, alpha, epsilon):
    X = np.asarray(data["X"], dtype=float)
    y = np.asarray(data["y"])
    x = np.asarray(data["x"], dtype=float)
    r = int(math.ceil(6.0 * math.log(4.0 / alpha) / epsilon))
    m = X.shape[0] // r
    t = np.full(r, np.inf)
    for j in range(r):
        pos = X[j * m:(j + 1) * m][y[j * m:(j + 1) * m] == 1]
        if pos.size:
            t[j] = pos.min()
    xs = np.atleast_1d(x)
    c1 = (xs[:, None] >= t[None, :]).sum(axis=1)
    return (r - c1).astype(float), c1.astype(float), x.ndim == 0


def _child(rng):
    return np.random.default_rng(int(rng.integers(2 ** 63)))


def predict(data, *, rng, epsilon, alpha=0.1, **_):
    g = _child(rng)
    if isinstance(data, dict):
        c0, c1, scalar = _votes(data, alpha, epsilon)
        z = g.logistic(size=c0.shape)
        out = (z < epsilon * (c1 - c0) / 2.0).astype(np.int8)
        return out[0] if scalar else out
    nu = float(data[1]) - float(data[0])
    return int(g.logistic() < epsilon * nu / 2.0)


def _batch(data, n, *, rng, epsilon, alpha=0.1, **_):
    g = _child(rng)
    if isinstance(data, dict):
        c0, c1, scalar = _votes(data, alpha, epsilon)
        z = g.logistic(size=(n, c0.shape[0]))
        out = (z < epsilon * (c1 - c0)[None, :] / 2.0).astype(np.int8)
        return out[:, 0] if scalar else out
    nu = float(data[1]) - float(data[0])
    return (g.logistic(size=n) < epsilon * nu / 2.0).astype(np.int8)


predict.batch = _batch
