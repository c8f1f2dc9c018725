"""Stable histogram (Lemma 15) with an early exit.

A singleton passes tau only with probability delta/2, so when every item of the list is
distinct (all counts 1) nothing can realistically be released: return the empty set at once
and skip the noise (this is the common case for long lists of fresh hypotheses).
"""
import numpy as np


def hist(data, *, rng, epsilon, delta, eta, beta, n):
    x = np.asarray(data, dtype=np.int64)
    L = x.size
    out = np.empty((L, 2), dtype=np.float64)
    out[:, 0] = -1.0
    out[:, 1] = 0.0
    ids, counts = np.unique(x, return_counts=True)
    if counts.max() == 1:  # all distinct: nothing is frequent
        return out
    b = 2.0 / epsilon
    tau = 1.0 + b * np.log(1.0 / delta)
    noisy = counts + rng.laplace(0.0, b, size=counts.size)
    sel = np.flatnonzero(noisy >= tau)
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
    if counts.max() == 1:
        return out
    b = 2.0 / epsilon
    tau = 1.0 + b * np.log(1.0 / delta)
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
