"""Geometric mechanism with a separate exact-integer path for large answers.

Small answers (|f| < 1000): Z = G1 - G2, G1, G2 i.i.d. failures-before-success with success 1 - alpha
(the difference of two geometrics is the two-sided geometric law).
Large answers (|f| >= 1000): exact Python-int arithmetic: Z = 0 with probability p0 = (1-alpha)/(1+alpha),
otherwise Z = S * K with S a fair sign and K ~ Geometric(1 - alpha) on {1, 2, ...}.
Both paths draw from the same law P[Z = k] = (1-alpha)/(1+alpha) alpha^|k|.
"""
import math

import numpy as np

BIG = 1000


def _alpha(epsilon, sensitivity):
    return math.exp(-epsilon / sensitivity)


def _z_small(rng, a, size):
    q = 1.0 - a
    return (rng.geometric(q, size=size) - rng.geometric(q, size=size)).astype(np.int64)


def _z_big(rng, a, size):
    p0 = (1.0 - a) / (1.0 + a)
    zero = rng.random(size) < p0
    sign = np.where(rng.random(size) < 0.5, -1, 1)
    mag = rng.geometric(1.0 - a, size=size)
    return np.where(zero, 0, sign * mag).astype(np.int64)


def geometric(data, *, rng, epsilon, sensitivity, p=None):
    f = np.asarray(data, dtype=float).reshape(-1)
    a = _alpha(epsilon, sensitivity)
    out = np.empty(f.size, dtype=np.int64)
    for i, v in enumerate(f):
        if abs(v) >= BIG:
            fi = int(v)                       # exact: v is an integral float
            z = int(_z_big(rng, a, 1)[0])
            out[i] = fi + z                   # exact Python-int addition
        else:
            out[i] = int(v) + int(_z_small(rng, a, 1)[0])
    return out


def _batch(data, n, *, rng, epsilon, sensitivity, p=None):
    f = np.asarray(data, dtype=float).reshape(-1)
    a = _alpha(epsilon, sensitivity)
    big = np.abs(f) >= BIG
    zs = _z_small(rng, a, (n, f.size))
    zb = _z_big(rng, a, (n, f.size))
    z = np.where(big[None, :], zb, zs)
    return f.astype(np.int64)[None, :] + z


geometric.batch = _batch
