"""Subsample-and-aggregate private prediction (Theorem 1, corrected) with the partition drawn at random:
per call, a uniform permutation pi of the n record positions is drawn from rng (independently of the
data); teacher j trains on records pi[j*m .. (j+1)*m - 1], m = n // r (the remaining n - r*m positions
of pi are unused). The spec allows 'a permutation drawn independently of the data'. Replacing record i
changes at most the one block that holds it under pi, so for every pi |nu - nu'| <= 2, and mixing over
pi keeps epsilon-DP. Fresh coins per query; vote form [c0, c1] as in the spec."""
import math

import numpy as np


def _r(epsilon, alpha):
    return int(math.ceil(6.0 * math.log(4.0 / alpha) / epsilon))


def _p1(nu, epsilon):
    z = epsilon * np.asarray(nu, dtype=float) / 2.0
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _votes(X, y, xs, r, perm):
    n = X.size
    m = n // r
    ts = np.full(r, np.inf)
    for j in range(r):
        idx = perm[j * m:(j + 1) * m]
        pos = X[idx][y[idx] == 1]
        if pos.size:
            ts[j] = pos.min()
    c1 = (xs[:, None] >= ts[None, :]).sum(axis=1)
    return (2 * c1 - r).astype(float)


def sapc_perm(data, *, rng, epsilon, alpha, **_ignored):
    if isinstance(data, dict):
        r = _r(epsilon, alpha)
        X = np.asarray(data["X"], dtype=float).reshape(-1)
        y = np.asarray(data["y"]).reshape(-1).astype(np.int64)
        x = data["x"]
        scalar = np.ndim(x) == 0
        xs = np.asarray(x, dtype=float).reshape(-1)
        perm = rng.permutation(X.size)
        nu = _votes(X, y, xs, r, perm)
    else:
        c = np.asarray(data).reshape(-1)
        nu = np.array([float(c[1]) - float(c[0])])
        scalar = True
    out = (rng.random(nu.size) < _p1(nu, epsilon)).astype(np.int8)
    return int(out[0]) if scalar else out
