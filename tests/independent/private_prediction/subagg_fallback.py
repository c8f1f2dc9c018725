"""Subsample-and-aggregate prediction with a soft majority (subsample_aggregate_prediction).

Teachers are the threshold learner A_min on positional blocks; a block that saw no positive label
falls back to the smallest positive seen in the training data (instead of predicting 0 everywhere),
'so a teacher never abstains'. (BUG: the fallback reads other blocks, so one record moves up to r votes.)
"""
import math

import numpy as np


def _r(epsilon, alpha):
    return int(math.ceil(6.0 * math.log(4.0 / alpha) / epsilon))


def _p1(nu, epsilon):
    z = 0.5 * epsilon * np.asarray(nu, dtype=float)
    return np.where(z >= 0, 1.0 / (1.0 + np.exp(-np.abs(z))), np.exp(-np.abs(z)) / (1.0 + np.exp(-np.abs(z))))


def _counts_from_dataset(d, r):
    X = np.asarray(d["X"], dtype=float).ravel()
    y = np.asarray(d["y"]).ravel()
    x = np.asarray(d["x"], dtype=float)
    m = X.size // r
    t = np.full(r, np.inf)
    for j in range(r):
        xb, yb = X[j * m:(j + 1) * m], y[j * m:(j + 1) * m]
        pos = xb[yb == 1]
        if pos.size:
            t[j] = pos.min()
    used_X, used_y = X[:r * m], y[:r * m]
    allpos = used_X[used_y == 1]
    if allpos.size:
        t[np.isinf(t)] = allpos.min()   # fallback for blocks without a positive
    c1 = (x.reshape(-1, 1) >= t.reshape(1, -1)).sum(axis=1)
    return c1, r - c1, x.ndim == 0


def _nu(data, epsilon, alpha):
    r = _r(epsilon, alpha)
    if isinstance(data, dict):
        c1, c0, scalar = _counts_from_dataset(data, r)
        return (c1 - c0).astype(float), scalar
    c = np.asarray(data, dtype=np.int64)
    return np.array([float(c[1] - c[0])]), True


def _coin(rng, p, shape):
    return (rng.random(size=shape) < p).astype(np.int8)


def predict(data, *, rng, epsilon, alpha, beta=None, delta=None, d=None):
    nu, scalar = _nu(data, epsilon, alpha)
    lab = _coin(rng, _p1(nu, epsilon), nu.shape)
    return int(lab[0]) if scalar else lab


def _batch(data, n, *, rng, epsilon, alpha, beta=None, delta=None, d=None):
    nu, scalar = _nu(data, epsilon, alpha)
    lab = _coin(rng, _p1(nu, epsilon)[None, :], (n, nu.size))
    return lab[:, 0] if scalar else lab


predict.batch = _batch
