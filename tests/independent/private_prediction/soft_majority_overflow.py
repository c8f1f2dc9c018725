"""Soft-majority private prediction (paper 002, Theorem 1, teachers at alpha/4).

Pr[b = 1] = exp(eps*nu/2) / (1 + exp(eps*nu/2)),  nu = c1 - c0, written as in the paper.
"""
import math

import numpy as np


def _p1(c0, c1, epsilon):
    nu = np.asarray(c1, dtype=float) - np.asarray(c0, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        w = np.exp(epsilon * nu / 2.0)
        return w / (1.0 + w)


def _votes(data, alpha, epsilon):
    X = np.asarray(data["X"], dtype=float)
    y = np.asarray(data["y"])
    x = np.asarray(data["x"], dtype=float)
    r = int(math.ceil(6.0 * math.log(4.0 / alpha) / epsilon))
    m = X.shape[0] // r
    t = np.full(r, np.inf)
    for j in range(r):
        Xb, yb = X[j * m:(j + 1) * m], y[j * m:(j + 1) * m]
        pos = Xb[yb == 1]
        if pos.size:
            t[j] = pos.min()
    xs = np.atleast_1d(x)
    c1 = (xs[:, None] >= t[None, :]).sum(axis=1)
    return r - c1, c1, x.ndim == 0


def predict(data, *, rng, epsilon, alpha=0.1, **_):
    if isinstance(data, dict):
        c0, c1, scalar = _votes(data, alpha, epsilon)
        p = _p1(c0, c1, epsilon)
        out = (rng.random(p.shape) < p).astype(np.int8)
        return int(out[0]) if scalar else out
    c0, c1 = int(data[0]), int(data[1])
    return int(rng.random() < _p1(c0, c1, epsilon))


def _batch(data, n, *, rng, epsilon, alpha=0.1, **_):
    if isinstance(data, dict):
        c0, c1, scalar = _votes(data, alpha, epsilon)
        p = _p1(c0, c1, epsilon)
        out = (rng.random((n, p.shape[0])) < p[None, :]).astype(np.int8)
        return out[:, 0] if scalar else out
    c0, c1 = int(data[0]), int(data[1])
    return (rng.random(n) < _p1(c0, c1, epsilon)).astype(np.int8)


predict.batch = _batch
