"""Sparse vector with the 'top without noise above w + 5 lam' fast path, per-call function and a batch sampler.

Same bug as sv_fast_path_top.py, in both `svt` and `svt.batch` (a faithful vectorisation of the buggy loop:
T + 1 threshold noises and m query noises pre-drawn per run, one counter per run).

Truth (privacy bug): at the defaults (epsilon = 1, delta = 1e-6, T = 1, w = 0, m = 5; lam = 21.026),
D = [5 lam - 0.5] * 5 and D' = [5 lam + 0.5] * 5: 'some bottom' has probability 0.2229 on D and exactly 0 on
D' (quadrature over the threshold noise): infinite loss, delta needed 0.22 against 1e-6.
"""
import math

import numpy as np


def _lam(epsilon, delta, T):
    return math.sqrt(32 * T * math.log(1 / delta)) / epsilon


def svt(data, *, rng, epsilon, delta, T, w, **_):
    return svt_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, w=w)[0]


def svt_batch(data, n, *, rng, epsilon, delta, T, w, **_):
    q = np.asarray(data, dtype=float)
    lam = _lam(epsilon, delta, T)
    thr = w + rng.laplace(0.0, lam, size=(n, T + 1))
    noisy = q + rng.laplace(0.0, 2 * lam, size=(n, q.shape[0]))
    out = np.full((n, q.shape[0]), -1, dtype=np.int8)
    c = np.zeros(n, dtype=np.int64)
    rows = np.arange(n)
    for i in range(q.shape[0]):
        live = c <= T
        if q[i] - w > 5 * lam:  # fast path: "certainly above"
            out[live, i] = 1
            continue
        top = noisy[:, i] > thr[rows, np.minimum(c, T)]
        out[live & top, i] = 1
        out[live & ~top, i] = 0
        c += live & ~top
    return out


svt.batch = svt_batch
