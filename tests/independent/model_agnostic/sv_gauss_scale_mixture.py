"""Sparse vector A_sparseVec (seed 000 Algorithm 1), Laplace noise drawn as a Gaussian scale mixture.

lam = sqrt(32 T ln(1/delta))/epsilon; w_hat = w + Lap(lam), re-drawn after every bottom; q_hat =
q_i + Lap(2 lam) fresh per query; top (1) iff q_hat > w_hat, bottom (0) and c += 1 otherwise; loop while
c <= T, -1 after the halt. Every Laplace variable is drawn as b * sqrt(2 E) * Z with E ~ Exp(1) and
Z ~ N(0, 1) independent: conditionally on E it is N(0, 2 b^2 E), whose characteristic function averaged
over E is E[exp(-b^2 E t^2)] = 1/(1 + b^2 t^2), the Laplace(b) one. Per call, plus a vectorised batch.

TRUTH (valid-variant): the same transcript law as the spec's Algorithm 1 (only the sampler differs), so
the same privacy loss (about 0.19 at the defaults, far below epsilon = 1) and the same Theorem 2.8
behaviour.
"""
import math

import numpy as np


def _lap(rng, b, size=None):
    e = rng.exponential(1.0, size=size)
    z = rng.standard_normal(size=size)
    return b * np.sqrt(2.0 * e) * z


def svt(data, *, rng, epsilon, delta, T, w):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon
    out = np.full(q.size, -1, dtype=np.int8)
    c = 0
    w_hat = w + float(_lap(rng, lam))
    for i in range(q.size):
        if c > T:
            break
        if q[i] + float(_lap(rng, 2.0 * lam)) > w_hat:
            out[i] = 1
        else:
            out[i] = 0
            c += 1
            w_hat = w + float(_lap(rng, lam))
    return out


def _batch(data, N, *, rng, epsilon, delta, T, w):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    m = q.size
    lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon
    out = np.full((N, m), -1, dtype=np.int8)
    c = np.zeros(N, dtype=np.int64)
    thr = w + _lap(rng, lam, size=(N, T + 2))      # threshold of segment 0..T+1
    qn = q[None, :] + _lap(rng, 2.0 * lam, size=(N, m))
    rows = np.arange(N)
    for i in range(m):
        live = c <= T
        top = live & (qn[:, i] > thr[rows, np.minimum(c, T + 1)])
        bot = live & ~top
        out[top, i] = 1
        out[bot, i] = 0
        c[bot] += 1
    return out


svt.batch = _batch
