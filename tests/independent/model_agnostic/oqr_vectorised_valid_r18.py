"""online_query_release (A_OQR, Alg 3), valid variant written vectorised: all m
query noises Lap(2 lam) drawn up front; each segment compares every remaining row
with the current threshold at once, releases the rows before the first failure,
outputs a bottom there, redraws the threshold and continues after it. Noise of a row
is used in exactly one revealed comparison, so the law is Algorithm 3's."""
import math

import numpy as np


def release(data, *, rng, epsilon, delta, T, m):
    rows = np.asarray(data, dtype=float).reshape(-1, 2)
    labels = rows[:, 0].astype(np.int64)
    dists = rows[:, 1]
    k = len(rows)
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    out = np.full(k, -2, dtype=np.int64)
    noisy = dists + rng.laplace(0.0, 2.0 * lam, size=k)
    w_hat = w + rng.laplace(0.0, lam)
    start, c = 0, 0
    while start < k and c <= T:
        fail = np.nonzero(noisy[start:] <= w_hat)[0]
        if fail.size == 0:
            out[start:] = labels[start:]
            break
        b = start + int(fail[0])
        out[start:b] = labels[start:b]
        out[b] = -1
        c += 1
        w_hat = w + rng.laplace(0.0, lam)
        start = b + 1
    return out


def _batch(data, n, *, rng, epsilon, delta, T, m):
    rows = np.asarray(data, dtype=float).reshape(-1, 2)
    labels = rows[:, 0].astype(np.int64)
    dists = rows[:, 1]
    k = len(rows)
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    noisy = dists + rng.laplace(0.0, 2.0 * lam, size=(n, k))
    thr = w + rng.laplace(0.0, lam, size=(n, T + 2))
    out = np.full((n, k), -2, dtype=np.int64)
    c = np.zeros(n, dtype=np.int64)
    for i in range(k):
        live = c <= T
        cur = thr[np.arange(n), np.minimum(c, T + 1)]
        top = noisy[:, i] > cur
        out[live & top, i] = labels[i]
        bot = live & ~top
        out[bot, i] = -1
        c = c + bot
    return out


release.batch = _batch
