"""Stable histogram (Lemma 15).

For long lists (n >= 1000) the delta-threshold 1 + (2/epsilon) ln(1/delta) is needlessly
conservative: the accuracy argument only needs the noise radius (2/epsilon) ln(n/beta), so long
lists use tau = 1 + (2/epsilon)(ln n - ln beta) and release more heavy items.
"""
import numpy as np


def _tau(L, epsilon, delta, beta):
    if L >= 1000:
        return 1.0 + (2.0 / epsilon) * (np.log(L) - np.log(beta))
    return 1.0 + (2.0 / epsilon) * np.log(1.0 / delta)


def hist(data, *, rng, epsilon, delta, eta, beta, n):
    x = np.asarray(data, dtype=np.int64)
    L = x.size
    out = np.empty((L, 2), dtype=np.float64)
    out[:, 0] = -1.0
    out[:, 1] = 0.0
    ids, counts = np.unique(x, return_counts=True)
    noisy = counts + rng.laplace(0.0, 2.0 / epsilon, size=counts.size)
    sel = np.flatnonzero(noisy >= _tau(L, epsilon, delta, beta))
    out[:sel.size, 0] = ids[sel]
    out[:sel.size, 1] = np.minimum(1.0, noisy[sel] / L)
    return out


def hist_batch(data, N, *, rng, epsilon, delta, eta, beta, n):
    x = np.asarray(data, dtype=np.int64)
    L = x.size
    out = np.empty((N, L, 2), dtype=np.float64)
    out[:, :, 0] = -1.0
    out[:, :, 1] = 0.0
    ids, counts = np.unique(x, return_counts=True)
    noisy = counts[None, :] + rng.laplace(0.0, 2.0 / epsilon, size=(N, counts.size))
    keep = noisy >= _tau(L, epsilon, delta, beta)
    order = np.argsort(~keep, axis=1, kind="stable")
    kk = np.take_along_axis(keep, order, axis=1)
    idv = ids[order]
    av = np.minimum(1.0, np.take_along_axis(noisy, order, axis=1) / L)
    K = counts.size
    out[:, :K, 0] = np.where(kk, idv, -1.0)
    out[:, :K, 1] = np.where(kk, av, 0.0)
    return out


hist.batch = hist_batch
