"""Sub-sample and aggregate (000 Alg 4, corrected distance dist* = max(0, ceil(gap/2) - 1)).

Bug (privacy): top and runner-up counts of all queries are taken from one
vectorised sort, but the sort runs along axis 0 (over the queries) instead of
axis 1 (over the labels of each query).  Row i's 'gap' becomes
(i-th smallest count of the last label) - (i-th smallest count of the
second-to-last label) across queries, so a query whose mode flips on the
neighbour can get a large dist* from the other rows and is released.
The mode itself (argmax, ties to the smallest label) is right.
"""
import numpy as np


def _consts(epsilon, delta, T, m):
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    return lam, 2.0 * lam * np.log(2.0 * m / delta)


def _stats(ct):
    srt = np.sort(ct, axis=0)
    gap = srt[:, -1] - srt[:, -2]
    dist = np.maximum(0, -(-gap // 2) - 1)
    mode = np.argmax(ct, axis=1)
    return mode, dist


def _run(ct, n, rng, epsilon, delta, T, m):
    lam, w = _consts(epsilon, delta, T, m)
    mode, dist = _stats(ct)
    rows = ct.shape[0]
    out = np.full((n, rows), -2, dtype=np.int64)
    c = np.zeros(n, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam, size=n)
    for i in range(rows):
        active = c <= T
        rel = dist[i] + rng.laplace(0.0, 2.0 * lam, size=n) > w_hat
        out[active & rel, i] = mode[i]
        bot = active & ~rel
        out[bot, i] = -1
        c = c + bot
        w_hat = np.where(bot, w + rng.laplace(0.0, lam, size=n), w_hat)
    return out


def subsamp(data, *, rng, epsilon, delta, T, m, beta):
    ct = np.asarray(data, dtype=np.int64)
    return _run(ct, 1, rng, epsilon, delta, T, m)[0]


def _batch(data, n, *, rng, epsilon, delta, T, m, beta):
    ct = np.asarray(data, dtype=np.int64)
    return _run(ct, n, rng, epsilon, delta, T, m)


subsamp.batch = _batch
