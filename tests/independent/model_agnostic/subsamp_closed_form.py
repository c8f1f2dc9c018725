"""A_subSamp (000 Algorithm 4, as printed) with a closed-form release test.

The test dist + Lap(2 lam) > w + Lap(lam) is decided with one uniform per row against the
exact tail S(w - dist) of Lap(2 lam) - Lap(lam) (one draw instead of two)."""
import numpy as np


def _tail(t, lam):
    """P(Lap(2 lam) - Lap(lam) > t)."""
    t = np.asarray(t, dtype=float)
    a = np.abs(t)
    s = (2.0 / 3.0) * np.exp(-a / (2.0 * lam)) - (1.0 / 6.0) * np.exp(-a / lam)
    return np.where(t >= 0, s, 1.0 - s)


def _modes_dists(counts):
    ct = np.asarray(counts, dtype=np.int64)
    modes = np.argmax(ct, axis=1)
    rows = np.arange(ct.shape[0])
    top = ct[rows, modes]
    rest = ct.copy()
    rest[rows, modes] = np.iinfo(np.int64).min
    second = rest.max(axis=1)
    return modes, np.maximum(0, top - second - 1)


def _params(epsilon, delta, T, m):
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    return lam, 2.0 * lam * np.log(2.0 * m / delta)


def subsample_aggregate(data, *, rng, epsilon, delta, T, m, beta):
    return subsample_aggregate_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, beta=beta)[0]


def subsample_aggregate_batch(data, n, *, rng, epsilon, delta, T, m, beta):
    modes, dist = _modes_dists(data)
    lam, w = _params(epsilon, delta, T, m)
    p = _tail(w - dist, lam)
    rows = len(dist)
    out = np.full((n, rows), -2, dtype=np.int64)
    c = np.zeros(n, dtype=np.int64)
    for i in range(rows):
        live = c <= T
        rel = live & (rng.random(n) < p[i])
        bot = live & ~rel
        out[rel, i] = modes[i]
        out[bot, i] = -1
        c = c + bot
    return out


subsample_aggregate.batch = subsample_aggregate_batch
