"""Stable histogram with Lap(1/eps) on the counts (sensitivity taken as 1: 'one record changes one
count', forgetting that a replacement moves two counts).

PRIVACY BUG: on count_shift_two_items (two counts move by 1 in opposite directions) the exact loss
is 2*eps = 2 at eps = 1 (each count contributes eps). The delta-event also changes: a count-1 item
is released w.p. (1/2) e^(-(tau-1) eps) = delta^2/2 (smaller).
"""
import numpy as np


def hist(data, *, rng, epsilon, delta):
    items = np.asarray(data, dtype=np.int64).reshape(-1)
    n = items.size
    ids, counts = np.unique(items, return_counts=True)
    noisy = counts + rng.laplace(0.0, 1.0 / epsilon, size=ids.size)
    tau = 1.0 + (2.0 / epsilon) * np.log(1.0 / delta)
    keep = noisy >= tau
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    k = int(keep.sum())
    out[:k, 0] = ids[keep]
    out[:k, 1] = np.minimum(1.0, noisy[keep] / n)
    return out


def _batch(data, N, *, rng, epsilon, delta):
    return np.stack([hist(data, rng=rng, epsilon=epsilon, delta=delta) for _ in range(N)])


hist.batch = _batch
