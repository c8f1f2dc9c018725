"""Stable histogram Hist (seed 003 Lemma 15, constants of note 003 A8): noisy counts
c_x + Lap(2/eps) for the items that occur, released when >= 1 + (2/eps) ln(1/delta); estimates
min(1, c~/n). Output: (n, 2) rows (id, a) in ascending id order, then (-1, 0) padding."""
import numpy as np


def _release(ids, counts, noise, n, epsilon, delta):
    tau = 1.0 + (2.0 / epsilon) * np.log(1.0 / delta)
    noisy = counts + noise
    keep = noisy >= tau
    out = np.zeros((n, 2), dtype=np.float64)
    out[:, 0] = -1.0
    k = int(keep.sum())
    out[:k, 0] = ids[keep]
    out[:k, 1] = np.minimum(1.0, noisy[keep] / n)
    return out


def hist(data, *, rng, epsilon, delta):
    items = np.asarray(data, dtype=np.int64).reshape(-1)
    n = items.size
    ids, counts = np.unique(items, return_counts=True)     # ascending ids
    noise = rng.laplace(0.0, 2.0 / epsilon, size=ids.size)
    return _release(ids, counts.astype(np.float64), noise, n, epsilon, delta)


def _batch(data, N, *, rng, epsilon, delta):
    items = np.asarray(data, dtype=np.int64).reshape(-1)
    n = items.size
    ids, counts = np.unique(items, return_counts=True)
    noise = rng.laplace(0.0, 2.0 / epsilon, size=(N, ids.size))
    tau = 1.0 + (2.0 / epsilon) * np.log(1.0 / delta)
    noisy = counts[None, :] + noise
    keep = noisy >= tau
    out = np.zeros((N, n, 2), dtype=np.float64)
    out[:, :, 0] = -1.0
    # position of each kept item among the kept ones of its run (ids already ascending)
    pos = np.cumsum(keep, axis=1) - 1
    r, c = np.nonzero(keep)
    out[r, pos[r, c], 0] = ids[c]
    out[r, pos[r, c], 1] = np.minimum(1.0, noisy[r, c] / n)
    return out


hist.batch = _batch
