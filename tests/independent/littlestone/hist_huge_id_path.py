"""Stable histogram (Lemma 15) with two counting paths.

Small ids (max id < 2**31) are counted densely with np.bincount; huge ids (hash-like canonical
ids of truth tables) go through a dict-based sparse path, written separately.
"""
import numpy as np


def _dense(x, epsilon, size):
    counts = np.bincount(x)
    ids = np.flatnonzero(counts)
    return ids, counts[ids], 2.0 / epsilon


def _sparse(x, epsilon, size):
    d = {}
    for v in x.tolist():
        d[v] = d.get(v, 0) + 1
    ids = np.array(sorted(d), dtype=np.int64)
    counts = np.array([d[i] for i in ids.tolist()], dtype=np.int64)
    return ids, counts, 1.0 / epsilon  # Laplace scale Delta/epsilon (one count per record)


def _prep(data, epsilon, delta):
    x = np.asarray(data, dtype=np.int64)
    f = _dense if x.max() < 2**31 else _sparse
    ids, counts, b = f(x, epsilon, x.size)
    tau = 1.0 + (2.0 / epsilon) * np.log(1.0 / delta)
    return x.size, ids, counts, b, tau


def hist(data, *, rng, epsilon, delta, eta, beta, n):
    L, ids, counts, b, tau = _prep(data, epsilon, delta)
    out = np.empty((L, 2), dtype=np.float64)
    out[:, 0] = -1.0
    out[:, 1] = 0.0
    noisy = counts + rng.laplace(0.0, b, size=counts.size)
    sel = np.flatnonzero(noisy >= tau)
    out[:sel.size, 0] = ids[sel]
    out[:sel.size, 1] = np.minimum(1.0, noisy[sel] / L)
    return out


def hist_batch(data, N, *, rng, epsilon, delta, eta, beta, n):
    L, ids, counts, b, tau = _prep(data, epsilon, delta)
    out = np.empty((N, L, 2), dtype=np.float64)
    out[:, :, 0] = -1.0
    out[:, :, 1] = 0.0
    noisy = counts[None, :] + rng.laplace(0.0, b, size=(N, counts.size))
    keep = noisy >= tau
    order = np.argsort(~keep, axis=1, kind="stable")
    kk = np.take_along_axis(keep, order, axis=1)
    idv = ids[order]
    av = np.minimum(1.0, np.take_along_axis(noisy, order, axis=1) / L)
    K = counts.size
    out[:, :K, 0] = np.where(kk, idv, -1.0)
    out[:, :K, 1] = np.where(kk, av, 0.0)
    return out


hist.batch = hist_batch
