"""A_subSamp with the corrected distance dist* = max(0, ceil(gap/2) - 1) (erratum 000-E1).

Written first for binary classification queries and then opened to L >= 2 labels: counts
of shape (m, L), mode = argmax (ties to the smallest label)."""
import numpy as np


def _modes_dists(counts):
    ct = np.asarray(counts, dtype=np.int64)
    rows = np.arange(ct.shape[0])
    modes = np.argmax(ct, axis=1)
    other = 1 - modes                                    # the competing label
    gap = ct[rows, modes] - ct[rows, other]
    dist = np.maximum(0, (gap + 1) // 2 - 1)             # ceil(gap/2) - 1
    return modes, dist


def _params(epsilon, delta, T, m):
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    return lam, 2.0 * lam * np.log(2.0 * m / delta)


def subsample_aggregate(data, *, rng, epsilon, delta, T, m, beta):
    return subsample_aggregate_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, beta=beta)[0]


def subsample_aggregate_batch(data, n, *, rng, epsilon, delta, T, m, beta):
    modes, dist = _modes_dists(data)
    lam, w = _params(epsilon, delta, T, m)
    rows = len(dist)
    out = np.full((n, rows), -2, dtype=np.int64)
    c = np.zeros(n, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam, size=n)
    for i in range(rows):
        live = c <= T
        rel = live & (dist[i] + rng.laplace(0.0, 2.0 * lam, size=n) > w_hat)
        bot = live & ~rel
        out[rel, i] = modes[i]
        out[bot, i] = -1
        c = c + bot
        w_hat = np.where(bot, w + rng.laplace(0.0, lam, size=n), w_hat)
    return out


subsample_aggregate.batch = subsample_aggregate_batch
