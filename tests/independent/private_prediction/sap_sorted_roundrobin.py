"""Soft-majority prediction whose teachers get the records sorted by feature and dealt round-robin
('balanced blocks': every teacher sees the whole range of X).

PRIVACY BUG: the partition depends on the data. Replacing one record moves it in the sort order and
shifts every record between its old and new rank to the previous teacher, so several teachers'
votes can change at once. Example at eps = 4, alpha = 0.5 (r = 4, n = 16, query x = 0.5): X = 0.01,
0.02, ..., 0.16, y = [1,0,0,0,1,0,1,0,0,1,0,0,0,0,0,1]; D' replaces record 0 (0.01, 1) by (0.085, 0).
All four teachers vote 1 on D (nu = 4), two on D' (nu = 0): loss on output 0 =
ln(0.5 / (1/(1 + e^8))) = 7.31 > 4. (The spec's stress datasets shift ranks cyclically and do not
expose it.) On the votes form it is the spec's mechanism.
"""
import math

import numpy as np


def predict(data, *, rng, epsilon, alpha):
    if isinstance(data, dict):
        r = math.ceil(6.0 * math.log(4.0 / alpha) / epsilon)
        X = np.asarray(data["X"], dtype=np.float64).reshape(-1)
        y = np.asarray(data["y"]).reshape(-1)
        n = X.size
        m = n // r
        order = np.argsort(X, kind="stable")[: r * m]
        t = np.full(r, np.inf)
        for rank, i in enumerate(order):
            if y[i] == 1:
                t[rank % r] = min(t[rank % r], X[i])
        q = np.asarray(data["x"], dtype=np.float64)
        nu = 2 * (q.reshape(-1)[:, None] >= t[None, :]).sum(axis=1) - r
        scalar = q.ndim == 0
    else:
        c = np.asarray(data).reshape(-1)
        nu = np.array([int(c[1]) - int(c[0])])
        scalar = True
    p = 1.0 / (1.0 + np.exp(-0.5 * epsilon * nu))
    out = (rng.random(p.shape) < p).astype(np.int8)
    return int(out[0]) if scalar else out


def _nu(data, epsilon, alpha):
    if isinstance(data, dict):
        r = math.ceil(6.0 * math.log(4.0 / alpha) / epsilon)
        X = np.asarray(data["X"], dtype=np.float64).reshape(-1)
        y = np.asarray(data["y"]).reshape(-1)
        m = X.size // r
        order = np.argsort(X, kind="stable")[: r * m]
        t = np.full(r, np.inf)
        for rank, i in enumerate(order):
            if y[i] == 1:
                t[rank % r] = min(t[rank % r], X[i])
        q = np.asarray(data["x"], dtype=np.float64)
        return 2 * (q.reshape(-1)[:, None] >= t[None, :]).sum(axis=1) - r, q.ndim == 0
    c = np.asarray(data).reshape(-1)
    return np.array([int(c[1]) - int(c[0])]), True


def _batch(data, N, *, rng, epsilon, alpha):
    nu, scalar = _nu(data, epsilon, alpha)
    p = 1.0 / (1.0 + np.exp(-0.5 * epsilon * nu))
    out = (rng.random((N, p.size)) < p[None, :]).astype(np.int8)
    return out[:, 0] if scalar else out


predict.batch = _batch
