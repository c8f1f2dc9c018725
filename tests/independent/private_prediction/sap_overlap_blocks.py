"""Private PAC prediction by subsample-and-aggregate (002 Thm 1, corrected: teachers at alpha/4).

Vote form: data = [c_0, c_1]  ->  1 w.p. logistic(epsilon*nu/2), nu = c_1 - c_0.
Dataset form: data = {"X", "y", "x"}: r positional blocks of m = n // r records, threshold
learner A_min (t = min positive x), one soft-majority answer per query.
"""
import math

import numpy as np


def _r(epsilon, alpha):
    return int(math.ceil(6.0 * math.log(4.0 / alpha) / epsilon))


def _blocks(n, r):
    m = n // r
    # block j = records j*m .. (j+1)*m (python slices: keep the boundary record so that no record
    # between two blocks is lost when rows are streamed in)
    return [slice(j * m, (j + 1) * m + 1) for j in range(r)]


def _teacher_votes(X, y, xq, r):
    X = np.asarray(X, float)
    y = np.asarray(y, int)
    xq = np.atleast_1d(np.asarray(xq, float))
    c1 = np.zeros(xq.shape, int)
    for sl in _blocks(len(X), r):
        xb, yb = X[sl], y[sl]
        pos = xb[yb == 1]
        t = pos.min() if pos.size else np.inf
        c1 += (xq >= t).astype(int)
    return c1


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
    p = np.where(z >= 0, 1.0 / (1.0 + np.exp(-np.abs(z))), np.exp(-np.abs(z)) / (1.0 + np.exp(-np.abs(z))))
    return p, scalar


def sap_overlap(data, *, rng, epsilon, alpha, **_):
    p, scalar = _p1(data, epsilon, alpha)
    out = (rng.random(p.shape) < p).astype(np.int8)
    return out[0] if scalar else out


def _batch(data, n, *, rng, epsilon, alpha, **_):
    p, scalar = _p1(data, epsilon, alpha)
    out = (rng.random((n,) + p.shape) < p).astype(np.int8)
    return out[:, 0] if scalar else out


sap_overlap.batch = _batch
