"""subsample_aggregate_prediction (as printed) -- VALID VARIANT (random partition).

What it is: Theorem 1's prediction algorithm, dataset form with the teachers' blocks taken
from a uniformly random permutation of the first r*m records (m = n // r), drawn from rng
afresh on every call, independently of the data; the spec's input text allows it:
"Teachers: f_j = A(S_j) on block S_j = records (j-1)m+1..jm (fixed index partition, or a
permutation drawn independently of the data)".  Threshold teacher A_min (t = min positive
x of the block, +inf if none; votes 1 iff x >= t), soft majority P[1] = logistic(eps nu/2),
fresh coins per query.  Votes form [c0, c1]: exactly the spec's.
TRUTH: eps-DP for every query (for each fixed partition the release is eps-DP since one record
sits in one block; a mixture over a data-independent partition keeps it); Theorem 1's
accuracy holds as for the fixed partition (i.i.d. records are exchangeable, so a random
partition of an i.i.d. sample has the law of a fixed one).  For a FIXED dataset the label
law is the partition-average of the positional one, so it differs from the reference's
positional law on non-exchangeable stress datasets -- by the spec's own allowance.
"""
import math

import numpy as np


def _r(epsilon, alpha):
    return int(math.ceil(6.0 * math.log(4.0 / alpha) / epsilon))


def _p1(nu, epsilon):
    z = epsilon * np.asarray(nu, dtype=np.float64) / 2.0
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _labels(data, R, rng, epsilon, alpha):
    X = np.asarray(data["X"], dtype=np.float64)
    y = np.asarray(data["y"]).astype(np.int64)
    r = _r(epsilon, alpha)
    m = X.shape[0] // r
    Xu, yu = X[: r * m], y[: r * m]
    q = np.atleast_1d(np.asarray(data["x"], dtype=np.float64))
    out = np.empty((R, q.shape[0]), dtype=np.int8)
    chunk = max(1, 2_000_000 // max(1, r * m))
    done = 0
    while done < R:
        c = min(chunk, R - done)
        perm = np.argsort(rng.random((c, r * m)), axis=1)
        Xp = Xu[perm].reshape(c, r, m)
        yp = yu[perm].reshape(c, r, m)
        t = np.where(yp == 1, Xp, np.inf).min(axis=2)            # (c, r)
        votes1 = (q[None, :, None] >= t[:, None, :]).sum(axis=2)  # (c, q)
        nu = 2 * votes1 - r
        out[done:done + c] = (rng.random((c, q.shape[0])) < _p1(nu, epsilon)).astype(np.int8)
        done += c
    return out, np.ndim(data["x"]) == 0


def predict(data, *, rng, epsilon=1.0, alpha=0.1, **params):
    if isinstance(data, dict):
        lab, scalar = _labels(data, 1, rng, epsilon, alpha)
        return lab[0, 0] if scalar else lab[0]
    c = np.asarray(data)
    nu = int(c[1]) - int(c[0])
    return np.int8(1 if rng.random() < _p1(nu, epsilon) else 0)


def _batch(data, n, *, rng, epsilon=1.0, alpha=0.1, **params):
    if isinstance(data, dict):
        lab, scalar = _labels(data, n, rng, epsilon, alpha)
        return lab[:, 0] if scalar else lab
    c = np.asarray(data)
    nu = int(c[1]) - int(c[0])
    return (rng.random(n) < _p1(nu, epsilon)).astype(np.int8)


predict.batch = _batch
