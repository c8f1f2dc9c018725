"""Sparse vector technique A_sparseVec (000 Algorithm 1).

lam = sqrt(32 T log(1/delta))/epsilon; w_hat = w + Lap(lam), re-drawn after every bottom;
q_hat = q_i + Lap(2 lam); top (1) if q_hat > w_hat, else bottom (0); halt after the (T+1)-th
bottom (remaining answers -1).  Noise is drawn up front in two arrays (threshold noise per
segment, query noise) so the loop body is the same in the per-call and the batch code.
"""
import math

import numpy as np


def _lam(epsilon, delta, T):
    return math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon


def _run(q, thr, qn, T):
    n, m = qn.shape
    rows = np.arange(n)
    out = np.full((n, len(q)), -1, np.int8)
    c = np.zeros(n, int)
    for i in range(len(q)):
        active = c <= T
        seg = np.minimum(c, T)
        w_hat = thr[rows, seg]
        nz = qn[rows, np.minimum(seg, m - 1)]
        top = q[i] + nz > w_hat
        out[active & top, i] = 1
        out[active & ~top, i] = 0
        c = c + (active & ~top)
    return out


def svt_segment_noise(data, *, rng, epsilon, delta, T, w, **_):
    q = np.asarray(data, float)
    lam = _lam(epsilon, delta, T)
    thr = w + rng.laplace(0.0, lam, size=(1, T + 1))
    qn = rng.laplace(0.0, 2 * lam, size=(1, len(q)))
    return _run(q, thr, qn, T)[0]


def _batch(data, n, *, rng, epsilon, delta, T, w, **_):
    q = np.asarray(data, float)
    lam = _lam(epsilon, delta, T)
    thr = w + rng.laplace(0.0, lam, size=(n, T + 1))
    qn = rng.laplace(0.0, 2 * lam, size=(n, len(q)))
    return _run(q, thr, qn, T)


svt_segment_noise.batch = _batch
