"""Stable histogram (Lemma 15) for Algorithm M.

Inside M the Fail outcome of G gets the reserved id 0.  M needs Fail's frequency to decide
whether to prune it, so this implementation always reports item 0 when it occurs (with its
noisy estimate) instead of gating it behind the threshold tau.
"""
import numpy as np

FAIL_ID = 0


def _pack(ids, noisy, keep, n):
    out = np.empty((n, 2), dtype=np.float64)
    out[:, 0] = -1.0
    out[:, 1] = 0.0
    sel = np.flatnonzero(keep)
    k = sel.size
    out[:k, 0] = ids[sel]
    out[:k, 1] = np.clip(noisy[sel] / n, 0.0, 1.0)
    return out


def hist(data, *, rng, epsilon, delta, eta, beta, n):
    x = np.asarray(data, dtype=np.int64)
    ids, counts = np.unique(x, return_counts=True)
    b = 2.0 / epsilon
    tau = 1.0 + b * np.log(1.0 / delta)
    noisy = counts + rng.laplace(0.0, b, size=counts.size)
    keep = noisy >= tau
    keep |= ids == FAIL_ID  # Fail is always reported so that M can prune it
    return _pack(ids, noisy, keep, x.size)


def hist_batch(data, N, *, rng, epsilon, delta, eta, beta, n):
    x = np.asarray(data, dtype=np.int64)
    ids, counts = np.unique(x, return_counts=True)
    b = 2.0 / epsilon
    tau = 1.0 + b * np.log(1.0 / delta)
    noisy = counts[None, :] + rng.laplace(0.0, b, size=(N, counts.size))
    keep = noisy >= tau
    keep |= (ids == FAIL_ID)[None, :]
    L = x.size
    out = np.empty((N, L, 2), dtype=np.float64)
    out[:, :, 0] = -1.0
    out[:, :, 1] = 0.0
    # stable pack of kept columns to the front (ids ascending)
    order = np.argsort(~keep, axis=1, kind="stable")
    kk = np.take_along_axis(keep, order, axis=1)
    idv = ids[order]
    av = np.clip(np.take_along_axis(noisy, order, axis=1) / L, 0.0, 1.0)
    K = counts.size
    out[:, :K, 0] = np.where(kk, idv, -1.0)
    out[:, :K, 1] = np.where(kk, av, 0.0)
    return out


hist.batch = hist_batch
