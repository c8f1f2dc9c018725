"""Stable histogram (Lemma 15) with a shortcut for a list with a single distinct item:
'its frequency is exactly 1 and it is certainly above the threshold', so it is released
as (id, 1.0) without drawing noise.  Otherwise: Lap(2/eps) on the counts of the items
that occur, release iff noisy count >= tau = 1 + (2/eps) ln(1/delta), a = min(1, c~/n)."""
import math

import numpy as np


def _one(ids, counts, noise, n, tau):
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    if ids.size == 1:
        out[0] = (ids[0], 1.0)
        return out
    noisy = counts + noise
    keep = noisy >= tau
    k = int(keep.sum())
    out[:k, 0] = ids[keep]
    out[:k, 1] = np.minimum(1.0, noisy[keep] / n)
    return out


def hist(data, *, rng, epsilon, delta):
    x = np.asarray(data).astype(np.int64).reshape(-1)
    n = x.size
    ids, counts = np.unique(x, return_counts=True)
    tau = 1.0 + (2.0 / epsilon) * math.log(1.0 / delta)
    noise = rng.laplace(0.0, 2.0 / epsilon, size=ids.size) if ids.size > 1 else None
    return _one(ids, counts, noise, n, tau)


def _batch(data, N, *, rng, epsilon, delta):
    x = np.asarray(data).astype(np.int64).reshape(-1)
    n = x.size
    ids, counts = np.unique(x, return_counts=True)
    tau = 1.0 + (2.0 / epsilon) * math.log(1.0 / delta)
    out = np.zeros((N, n, 2))
    out[:, :, 0] = -1.0
    if ids.size == 1:
        out[:, 0, 0] = ids[0]
        out[:, 0, 1] = 1.0
        return out
    noisy = counts[None, :] + rng.laplace(0.0, 2.0 / epsilon, size=(N, ids.size))
    keep = noisy >= tau
    # stable compaction of the released items to the front, ascending id order
    order = np.argsort(~keep, axis=1, kind="stable")
    k_sorted = np.take_along_axis(keep, order, axis=1)
    id_sorted = ids[order]
    a_sorted = np.minimum(1.0, np.take_along_axis(noisy, order, axis=1) / n)
    m = min(ids.size, n)
    out[:, :m, 0] = np.where(k_sorted[:, :m], id_sorted[:, :m], -1.0)
    out[:, :m, 1] = np.where(k_sorted[:, :m], a_sorted[:, :m], 0.0)
    return out


hist.batch = _batch
