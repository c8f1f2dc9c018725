"""A_subSamp (000 Algorithm 4, as printed): modes and runner-ups of all rows computed
at once with numpy, then A_OQR (Algorithm 3) over the rows."""
import numpy as np


def _modes_dists(counts):
    ct = np.asarray(counts, dtype=np.int64)
    modes = np.argmax(ct, axis=1)                       # ties -> smallest label
    top = ct[np.arange(ct.shape[0]), modes]
    rest = ct.copy()
    rest[:, modes] = -1                                 # drop the mode, keep the others
    second = rest.max(axis=1)
    dist = np.maximum(0, (top - second) - 1)
    return modes, dist


def _params(epsilon, delta, T, m):
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * np.log(2.0 * m / delta)
    return lam, w


def subsample_aggregate(data, *, rng, epsilon, delta, T, m, beta):
    modes, dist = _modes_dists(data)
    lam, w = _params(epsilon, delta, T, m)
    rows = len(dist)
    out = np.full(rows, -2, dtype=np.int64)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i in range(rows):
        if c > T:
            break
        if dist[i] + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = modes[i]
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out


def subsample_aggregate_batch(data, n, *, rng, epsilon, delta, T, m, beta):
    modes, dist = _modes_dists(data)
    lam, w = _params(epsilon, delta, T, m)
    rows = len(dist)
    out = np.full((n, rows), -2, dtype=np.int64)
    c = np.zeros(n, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam, size=n)
    for i in range(rows):
        live = c <= T
        noisy = dist[i] + rng.laplace(0.0, 2.0 * lam, size=n)
        rel = live & (noisy > w_hat)
        bot = live & ~rel
        out[rel, i] = modes[i]
        out[bot, i] = -1
        c = c + bot
        w_hat = np.where(bot, w + rng.laplace(0.0, lam, size=n), w_hat)
    return out


subsample_aggregate.batch = subsample_aggregate_batch
