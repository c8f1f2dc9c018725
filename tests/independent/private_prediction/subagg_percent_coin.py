"""Subsample-and-aggregate prediction with a soft majority (subsample_aggregate_prediction).

The label coin is drawn as an integer percent: label = 1 iff U < int(100 p), U uniform on {0..99}
(integer comparison, 'two decimals are plenty for a probability').
(BUG: int() truncates, so Pr[1] = floor(100 p)/100: exactly 0 for nu <= -11, 0.01 at nu = -9.)
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
    u = rng.integers(0, 100, size=shape)
    k = np.floor(100.0 * p).astype(np.int64)      # int(100*p)
    return (u < k).astype(np.int8)


def predict(data, *, rng, epsilon, alpha, beta=None, delta=None, d=None):
    nu, scalar = _nu(data, epsilon, alpha)
    lab = _coin(rng, _p1(nu, epsilon), nu.shape)
    return int(lab[0]) if scalar else lab


def _batch(data, n, *, rng, epsilon, alpha, beta=None, delta=None, d=None):
    nu, scalar = _nu(data, epsilon, alpha)
    lab = _coin(rng, _p1(nu, epsilon)[None, :], (n, nu.size))
    return lab[:, 0] if scalar else lab


predict.batch = _batch
