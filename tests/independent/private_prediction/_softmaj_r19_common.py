"""Shared helpers (dataset form of subsample_aggregate_prediction_corrected): positional blocks, A_min teachers."""
import math

import numpy as np


def n_teachers(epsilon, alpha):
    return int(math.ceil(6.0 * math.log(4.0 / alpha) / epsilon))


def votes_from_dataset(data, epsilon, alpha):
    """Return (c0, c1) arrays over the queries, and whether x was a scalar."""
    X = np.asarray(data["X"], dtype=float).ravel()
    y = np.asarray(data["y"]).ravel()
    xq = np.asarray(data["x"], dtype=float)
    scalar = xq.ndim == 0
    xq = np.atleast_1d(xq)
    r = n_teachers(epsilon, alpha)
    n = X.size
    m = n // r
    if m < 1:
        raise ValueError("fewer records than teachers")
    thr = np.empty(r)
    for j in range(r):
        xb = X[j * m:(j + 1) * m]
        yb = y[j * m:(j + 1) * m]
        pos = xb[yb == 1]
        thr[j] = pos.min() if pos.size else np.inf
    c1 = (xq[:, None] >= thr[None, :]).sum(axis=1)
    c0 = r - c1
    return c0, c1, scalar


def is_dataset(data):
    return isinstance(data, dict)
