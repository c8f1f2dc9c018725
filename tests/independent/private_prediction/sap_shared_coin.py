"""Soft-majority prediction that draws ONE uniform per run and uses it for every query of the batch:
label_j = 1[u < p(nu_j)].

DIFFERS: each query's label has exactly the spec's law p(nu) (so the per-query eps-DP claim holds),
but the answers to several queries are comonotone instead of independent. Joint law differs: two
queries with p_1 = p_2 never get (1, 0) (spec: p(1-p) each). Joint loss of a batch is unbounded
(e.g. votes equal at two queries on D, different on D'), where fresh coins give <= q*eps.
"""
import math

import numpy as np


def _nu(data, epsilon, alpha):
    if isinstance(data, dict):
        r = math.ceil(6.0 * math.log(4.0 / alpha) / epsilon)
        X = np.asarray(data["X"], dtype=np.float64).reshape(-1)
        y = np.asarray(data["y"]).reshape(-1)
        m = X.size // r
        t = np.full(r, np.inf)
        for j in range(r):
            xb, yb = X[j * m:(j + 1) * m], y[j * m:(j + 1) * m]
            if np.any(yb == 1):
                t[j] = xb[yb == 1].min()
        q = np.asarray(data["x"], dtype=np.float64)
        return 2 * (q.reshape(-1)[:, None] >= t[None, :]).sum(axis=1) - r, q.ndim == 0
    c = np.asarray(data).reshape(-1)
    return np.array([int(c[1]) - int(c[0])]), True


def predict(data, *, rng, epsilon, alpha):
    nu, scalar = _nu(data, epsilon, alpha)
    p = 1.0 / (1.0 + np.exp(-0.5 * epsilon * nu))
    u = rng.random()
    out = (u < p).astype(np.int8)
    return int(out[0]) if scalar else out


def _batch(data, N, *, rng, epsilon, alpha):
    nu, scalar = _nu(data, epsilon, alpha)
    p = 1.0 / (1.0 + np.exp(-0.5 * epsilon * nu))
    u = rng.random((N, 1))
    out = (u < p[None, :]).astype(np.int8)
    return out[:, 0] if scalar else out


predict.batch = _batch
