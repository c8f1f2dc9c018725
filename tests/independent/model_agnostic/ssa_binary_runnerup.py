"""A_subSamp (000 Algorithm 4) with the corrected distance dist* = max(0, ceil(gap/2) - 1).

Rows are vote counts (m, L).  Mode = argmax (ties to the smallest label); gap = ct(mode) minus
the count of "the other label".  Written for binary classification first and then generalised
to L labels by taking the next label cyclically as the other one.
"""
import math

import numpy as np


def _consts(epsilon, delta, T, m):
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    return lam, 2.0 * lam * math.log(2.0 * m / delta)


def _prep(data):
    v = np.asarray(data, np.int64)
    L = v.shape[1]
    mode = np.argmax(v, axis=1)
    other = (mode + 1) % L
    r = np.arange(v.shape[0])
    gap = v[r, mode] - v[r, other]
    dist = np.maximum(0, -(-gap // 2) - 1)
    return mode, dist


def _run(mode, dist, thr, qn, T):
    n, m = qn.shape
    rows = np.arange(n)
    out = np.full((n, m), -2, np.int64)
    c = np.zeros(n, int)
    for i in range(m):
        active = c <= T
        w_hat = thr[rows, np.minimum(c, T)]
        top = dist[i] + qn[:, i] > w_hat
        out[active & top, i] = mode[i]
        out[active & ~top, i] = -1
        c = c + (active & ~top)
    return out


def ssa_next_label(data, *, rng, epsilon, delta, T, m, **_):
    mode, dist = _prep(data)
    lam, w = _consts(epsilon, delta, T, m)
    thr = w + rng.laplace(0.0, lam, size=(1, T + 1))
    qn = rng.laplace(0.0, 2 * lam, size=(1, len(mode)))
    return _run(mode, dist, thr, qn, T)[0]


def _batch(data, n, *, rng, epsilon, delta, T, m, **_):
    mode, dist = _prep(data)
    lam, w = _consts(epsilon, delta, T, m)
    thr = w + rng.laplace(0.0, lam, size=(n, T + 1))
    qn = rng.laplace(0.0, 2 * lam, size=(n, len(mode)))
    return _run(mode, dist, thr, qn, T)


ssa_next_label.batch = _batch
