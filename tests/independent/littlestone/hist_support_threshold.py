"""Stable histogram (Lemma 15): Laplace counts on the items that occur.

The release threshold takes a union bound over the items that occur (|support|
items each get a delta-share), tau = 1 + (2/eps) ln(|support|/delta): with a
single item this is the textbook threshold, otherwise it is more conservative.
"""
import numpy as np


def _one(ids, counts, noise, n, epsilon, delta):
    tau = 1.0 + (2.0 / epsilon) * np.log(ids.size / delta)
    noisy = counts + noise
    keep = noisy >= tau
    out = np.tile(np.array([-1.0, 0.0]), (n, 1))
    k = int(keep.sum())
    out[:k, 0] = ids[keep]
    out[:k, 1] = np.minimum(1.0, noisy[keep] / n)
    return out


def stable_hist(data, *, rng, epsilon, delta, eta=None, beta=None, n=None, **kw):
    d = np.asarray(data, dtype=np.int64)
    ids, counts = np.unique(d, return_counts=True)
    noise = rng.laplace(0.0, 2.0 / epsilon, size=ids.size)
    return _one(ids, counts, noise, d.size, epsilon, delta)


def _batch(data, N, *, rng, epsilon, delta, eta=None, beta=None, n=None, **kw):
    d = np.asarray(data, dtype=np.int64)
    ids, counts = np.unique(d, return_counts=True)
    noise = rng.laplace(0.0, 2.0 / epsilon, size=(N, ids.size))
    return np.stack([_one(ids, counts, noise[i], d.size, epsilon, delta) for i in range(N)])


stable_hist.batch = _batch
