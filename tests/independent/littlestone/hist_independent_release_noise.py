"""Stable histogram Hist (seed 003 Lemma 15) with a privacy bug: the release test and the released estimate use
two independent Laplace(2/eps) noises (the test on c + Z1 >= 1 + (2/eps) ln(1/delta), the estimate
min(1, (c + Z2)/n)). Above the threshold every released count then carries two noisy measurements of it.
Output: (n, 2) rows (id, a) in ascending id order, then (-1, 0) padding."""
import numpy as np


def _release(ids, counts, n, N, rng, epsilon, delta):
    tau = 1.0 + (2.0 / epsilon) * np.log(1.0 / delta)
    test = counts[None, :] + rng.laplace(0.0, 2.0 / epsilon, size=(N, ids.size))
    estimate = counts[None, :] + rng.laplace(0.0, 2.0 / epsilon, size=(N, ids.size))
    keep = test >= tau
    out = np.zeros((N, n, 2), dtype=np.float64)
    out[:, :, 0] = -1.0
    pos = np.cumsum(keep, axis=1) - 1
    r, c = np.nonzero(keep)
    out[r, pos[r, c], 0] = ids[c]
    out[r, pos[r, c], 1] = np.minimum(1.0, estimate[r, c] / n)
    return out


def _batch(data, N, *, rng, epsilon, delta):
    items = np.asarray(data, dtype=np.int64).reshape(-1)
    ids, counts = np.unique(items, return_counts=True)
    return _release(ids, counts.astype(np.float64), items.size, N, rng, epsilon, delta)


def hist(data, *, rng, epsilon, delta):
    return _batch(data, 1, rng=rng, epsilon=epsilon, delta=delta)[0]


hist.batch = _batch
