"""Subsample-and-aggregate soft majority (002 Theorem 1, corrected): VALID variant.

Pr[b] proportional to exp(epsilon c_b / 2) sampled as argmax_b (epsilon c_b / 2 + Gumbel_b)
(Gumbel-max trick), from a child generator spawned off rng.  Handles the vote form and the
dataset form (r positional blocks of m = n // r records, A_min teachers).
"""
import math

import numpy as np


def _r(epsilon, alpha):
    return int(math.ceil(6.0 * math.log(4.0 / alpha) / epsilon))


def _counts(data, epsilon, alpha):
    if isinstance(data, dict):
        r = _r(epsilon, alpha)
        X = np.asarray(data["X"], float)
        y = np.asarray(data["y"], int)
        m = len(X) // r
        Xb = X[: r * m].reshape(r, m)
        yb = y[: r * m].reshape(r, m)
        t = np.where(yb == 1, Xb, np.inf).min(axis=1)
        xq = np.atleast_1d(np.asarray(data["x"], float))
        c1 = (xq[:, None] >= t[None, :]).sum(axis=1)
        return r - c1, c1, np.ndim(data["x"]) == 0
    c = np.asarray(data, int)
    return np.atleast_1d(c[0]), np.atleast_1d(c[1]), True


def _draw(c0, c1, shape, child, epsilon):
    g = child.gumbel(size=shape + (2,) + c0.shape)
    s0 = epsilon * c0 / 2.0 + g[..., 0, :]
    s1 = epsilon * c1 / 2.0 + g[..., 1, :]
    return (s1 > s0).astype(np.int8)


def sap_gumbel(data, *, rng, epsilon, alpha, **_):
    c0, c1, scalar = _counts(data, epsilon, alpha)
    child = rng.spawn(1)[0]
    out = _draw(c0, c1, (), child, epsilon)
    return out[0] if scalar else out


def _batch(data, n, *, rng, epsilon, alpha, **_):
    c0, c1, scalar = _counts(data, epsilon, alpha)
    child = np.random.default_rng(rng.integers(2**63))
    out = _draw(c0, c1, (n,), child, epsilon)
    return out[:, 0] if scalar else out


sap_gumbel.batch = _batch
