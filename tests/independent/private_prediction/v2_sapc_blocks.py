"""Subsample-and-aggregate private prediction (Theorem 1, corrected), two block layouts.

sapc_drop:   m = n // r, teacher j trains on records j*m .. (j+1)*m - 1; the n - r*m left-over records
             are ignored (the spec's own layout).
sapc_spread: the n - r*m left-over records are spread one each over the first n % r blocks
             (sizes m+1, ..., m+1, m, ..., m); still a partition, each record in exactly one block, so
             replacing a record changes one teacher's vote: |nu - nu'| <= 2, epsilon-DP.
Teacher = A_min (t = min{X_i : y_i = 1}, +inf if none), vote 1[x >= t].
Release 1 with probability exp(eps*nu/2)/(1+exp(eps*nu/2)), nu = c1 - c0, fresh coin per query.
"""
import math

import numpy as np


def _r(epsilon, alpha):
    return int(math.ceil(6.0 * math.log(4.0 / alpha) / epsilon))


def _p1(nu, epsilon):
    z = epsilon * np.asarray(nu, dtype=float) / 2.0
    # stable logistic
    return np.where(z >= 0, 1.0 / (1.0 + np.exp(-np.abs(z))), np.exp(-np.abs(z)) / (1.0 + np.exp(-np.abs(z))))


def _bounds(n, r, spread):
    m, extra = divmod(n, r)
    if not spread:
        return [(j * m, (j + 1) * m) for j in range(r)]
    sizes = [m + 1 if j < extra else m for j in range(r)]
    starts = np.concatenate([[0], np.cumsum(sizes)])
    return [(int(starts[j]), int(starts[j + 1])) for j in range(r)]


def _thresholds(X, y, r, spread):
    ts = np.full(r, np.inf)
    for j, (a, b) in enumerate(_bounds(X.size, r, spread)):
        pos = X[a:b][y[a:b] == 1]
        if pos.size:
            ts[j] = pos.min()
    return ts


def _nus(data, epsilon, alpha, spread):
    """Return (nu array over queries, scalar_query flag)."""
    if isinstance(data, dict):
        r = _r(epsilon, alpha)
        X = np.asarray(data["X"], dtype=float).reshape(-1)
        y = np.asarray(data["y"]).reshape(-1).astype(np.int64)
        x = data["x"]
        scalar = np.ndim(x) == 0
        xs = np.asarray(x, dtype=float).reshape(-1)
        ts = _thresholds(X, y, r, spread)
        c1 = (xs[:, None] >= ts[None, :]).sum(axis=1)
        return (2 * c1 - r).astype(float), scalar
    c = np.asarray(data).reshape(-1)
    return np.array([float(c[1]) - float(c[0])]), True


def _one(data, rng, epsilon, alpha, spread):
    nu, scalar = _nus(data, epsilon, alpha, spread)
    out = (rng.random(nu.size) < _p1(nu, epsilon)).astype(np.int8)
    return int(out[0]) if scalar else out


def _many(data, n, rng, epsilon, alpha, spread):
    nu, scalar = _nus(data, epsilon, alpha, spread)
    out = (rng.random((n, nu.size)) < _p1(nu, epsilon)[None, :]).astype(np.int8)
    return out[:, 0] if scalar else out


def sapc_drop(data, *, rng, epsilon, alpha, **_ignored):
    return _one(data, rng, epsilon, alpha, False)


def sapc_spread(data, *, rng, epsilon, alpha, **_ignored):
    return _one(data, rng, epsilon, alpha, True)


def _drop_batch(data, n, *, rng, epsilon, alpha, **_ignored):
    return _many(data, n, rng, epsilon, alpha, False)


def _spread_batch(data, n, *, rng, epsilon, alpha, **_ignored):
    return _many(data, n, rng, epsilon, alpha, True)


sapc_drop.batch = _drop_batch
sapc_spread.batch = _spread_batch
