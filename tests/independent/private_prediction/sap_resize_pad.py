"""Private PAC prediction by subsample-and-aggregate (002 Thm 1, as printed).

Vote form: data = [c_0, c_1] -> 1 w.p. logistic(epsilon*nu/2).
Dataset form: the records are reshaped into r blocks in one vectorised step (np.resize); the
block length is ceil(n / r) so that no record is thrown away.
"""
import math

import numpy as np


def _r(epsilon, alpha):
    return int(math.ceil(6.0 * math.log(4.0 / alpha) / epsilon))


def _teacher_votes(X, y, xq, r):
    X = np.asarray(X, float)
    y = np.asarray(y, int)
    n = len(X)
    m = -(-n // r)                         # ceil: use every record
    idx = np.resize(np.arange(n), (r, m))  # rectangular blocks, short tail filled by np.resize
    Xb, yb = X[idx], y[idx]
    t = np.where(yb == 1, Xb, np.inf).min(axis=1)          # A_min on every block at once
    xq = np.atleast_1d(np.asarray(xq, float))
    return (xq[:, None] >= t[None, :]).sum(axis=1)


def _p1(data, epsilon, alpha):
    if isinstance(data, dict):
        r = _r(epsilon, alpha)
        c1 = _teacher_votes(data["X"], data["y"], data["x"], r)
        nu = 2 * c1 - r
        scalar = np.ndim(data["x"]) == 0
    else:
        c = np.asarray(data, int)
        nu = np.atleast_1d(c[1] - c[0])
        scalar = True
    z = epsilon * nu / 2.0
    e = np.exp(-np.abs(z))
    p = np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))
    return p, scalar


def sap_resize(data, *, rng, epsilon, alpha, **_):
    p, scalar = _p1(data, epsilon, alpha)
    out = (rng.random(p.shape) < p).astype(np.int8)
    return out[0] if scalar else out


def _batch(data, n, *, rng, epsilon, alpha, **_):
    p, scalar = _p1(data, epsilon, alpha)
    out = (rng.random((n,) + p.shape) < p).astype(np.int8)
    return out[:, 0] if scalar else out


sap_resize.batch = _batch
