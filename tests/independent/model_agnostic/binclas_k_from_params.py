"""A_binClas (004 Algorithm 2), binary classification queries.

Bug (privacy): with two labels ct(0) + ct(1) = k, so the implementer writes
the vote margin as |2 ct(1) - k| with k the number of chunks computed in
step 1 of the algorithm (k = 34 sqrt(2) lam log(4mT/min(delta, beta/2)),
rounded up: 908 at the defaults), not the number of votes actually present in
the row.  For any ensemble whose rows do not sum to 908 the 'dist' is huge and
tied or near-tied queries (whose majority flips on the neighbour) are
released almost surely.
"""
import math

import numpy as np


def _consts(epsilon, delta, T, m, beta):
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    k = 34.0 * math.sqrt(2.0) * lam * math.log(4.0 * m * T / min(delta, beta / 2.0))
    return lam, w, math.ceil(k)


def _run(ct, n, rng, epsilon, delta, T, m, beta):
    lam, w, k = _consts(epsilon, delta, T, m, beta)
    q_hat = (ct[:, 1] > ct[:, 0]).astype(np.int64)        # ties -> 0
    dist = np.maximum(0, np.abs(2 * ct[:, 1] - k) - 1)
    rows = ct.shape[0]
    out = np.full((n, rows), -2, dtype=np.int64)
    c = np.zeros(n, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam, size=n)
    for i in range(rows):
        active = c <= T
        rel = dist[i] + rng.laplace(0.0, 2.0 * lam, size=n) > w_hat
        out[active & rel, i] = q_hat[i]
        bot = active & ~rel
        out[bot, i] = -1
        c = c + bot
        w_hat = np.where(bot, w + rng.laplace(0.0, lam, size=n), w_hat)
    return out


def a_binclas(data, *, rng, epsilon, delta, T, m, beta, alpha, gamma, V, n, xi):
    ct = np.asarray(data, dtype=np.int64).reshape(-1, 2)
    return _run(ct, 1, rng, epsilon, delta, T, m, beta)[0]


def _batch(data, n_runs, *, rng, epsilon, delta, T, m, beta, alpha, gamma, V, n, xi):
    ct = np.asarray(data, dtype=np.int64).reshape(-1, 2)
    return _run(ct, n_runs, rng, epsilon, delta, T, m, beta)


a_binclas.batch = _batch
