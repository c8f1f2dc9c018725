"""Stable histogram Hist (paper 003, Lemma 15): Lap(2/eps) on the counts of the occurring items,
released when the noisy count reaches tau = 1 + (2/eps) ln(1/delta).

For short lists (n below tau) no item can ever pass the threshold, so the thresholded histogram is
always empty; there we release the noisy estimates of the occurring items directly.
"""
import numpy as np


def _rows(ids, noisy, n, tau, small):
    keep = np.ones(ids.size, bool) if small else (noisy >= tau)
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    k = int(keep.sum())
    out[:k, 0] = ids[keep]
    out[:k, 1] = np.clip(noisy[keep] / n, 0.0, 1.0)
    return out


def hist(data, *, rng, epsilon, delta, n, **_):
    d = np.asarray(data, dtype=np.int64)
    ids, counts = np.unique(d, return_counts=True)
    tau = 1.0 + (2.0 / epsilon) * np.log(1.0 / delta)
    noisy = counts + rng.laplace(0.0, 2.0 / epsilon, size=ids.size)
    return _rows(ids, noisy, d.size, tau, d.size < tau)


def _batch(data, N, *, rng, epsilon, delta, n, **_):
    d = np.asarray(data, dtype=np.int64)
    ids, counts = np.unique(d, return_counts=True)
    tau = 1.0 + (2.0 / epsilon) * np.log(1.0 / delta)
    noisy = counts[None, :] + rng.laplace(0.0, 2.0 / epsilon, size=(N, ids.size))
    keep = np.ones(noisy.shape, bool) if d.size < tau else (noisy >= tau)
    order = np.argsort(~keep, axis=1, kind="stable")
    kept = np.take_along_axis(keep, order, axis=1)
    vals = np.take_along_axis(noisy, order, axis=1)
    m = min(ids.size, d.size)
    out = np.zeros((N, d.size, 2))
    out[:, :, 0] = -1.0
    out[:, :m, 0] = np.where(kept[:, :m], ids[order[:, :m]], -1)
    out[:, :m, 1] = np.where(kept[:, :m], np.clip(vals[:, :m] / d.size, 0.0, 1.0), 0.0)
    return out


hist.batch = _batch
