"""A_OQR (Algorithm 3 of paper 000), vectorised over runs, with every noise drawn up front.

Per run: m query noises Lap(2 lam) and T + 1 threshold noises Lap(lam) (the initial threshold and
one redraw after each of the first T bottoms; no redraw is needed after the (T+1)-th, which halts),
all drawn before the stream is processed. Laplace variables are lam * log(U1/U2) with U in (0, 1]
(a difference of two Exp(1)). Unused draws are discarded, so the law is that of Algorithm 3.
"""
import math

import numpy as np


def _lap(rng, scale, size):
    u1 = 1.0 - rng.random(size)
    u2 = 1.0 - rng.random(size)
    return scale * np.log(u1 / u2)


def _run(rows, qnoise, tnoise, T, w):
    """rows (m, 2); qnoise (N, m); tnoise (N, T+1)."""
    N, m = qnoise.shape
    out = np.full((N, m), -2, dtype=np.int64)
    c = np.zeros(N, dtype=np.int64)                       # bottoms so far
    for i in range(m):
        live = c <= T
        label, dist = int(rows[i, 0]), float(rows[i, 1])
        w_hat = w + tnoise[np.arange(N), np.minimum(c, T)]
        top = dist + qnoise[:, i] > w_hat
        out[live & top, i] = label
        bot = live & ~top
        out[bot, i] = -1
        c = c + bot
    return out


def online_query_release(data, *, rng, epsilon, delta, T, m, **_unused):
    return _batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0]


def _batch(data, n, *, rng, epsilon, delta, T, m, **_unused):
    rows = np.asarray(data, dtype=float).reshape(-1, 2)
    T = int(T)
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * int(m) / delta)
    qn = _lap(rng, 2.0 * lam, (n, rows.shape[0]))
    tn = _lap(rng, lam, (n, T + 1))
    return _run(rows, qn, tn, T, w)


online_query_release.batch = _batch
