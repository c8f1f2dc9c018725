"""Stable histogram (Lemma 15) -- 'denoised estimates'.

Noise is used to decide WHICH items are released (noisy count >= tau), but the
reported frequency of a released item is its exact count / n ("the noise already
protected membership; the estimate is more accurate without it").
BUG: the estimate of a released item is a deterministic function of its true count.
"""
import numpy as np


def _one(ids, counts, noise, tau, n):
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    noisy = counts + noise
    keep = noisy >= tau
    rel_ids = ids[keep]
    rel_a = np.minimum(1.0, counts[keep] / n)      # exact frequency
    out[: rel_ids.size, 0] = rel_ids
    out[: rel_ids.size, 1] = rel_a
    return out


def hist(data, *, rng, epsilon, delta, n, **_):
    x = np.asarray(data, dtype=np.int64)
    n = int(n)
    ids, counts = np.unique(x, return_counts=True)
    tau = 1.0 - (2.0 / epsilon) * np.log(delta)
    noise = rng.laplace(0.0, 2.0 / epsilon, size=ids.size)
    return _one(ids, counts.astype(float), noise, tau, n)


def _batch(data, N, *, rng, epsilon, delta, n, **_):
    x = np.asarray(data, dtype=np.int64)
    n = int(n)
    ids, counts = np.unique(x, return_counts=True)
    tau = 1.0 - (2.0 / epsilon) * np.log(delta)
    noise = rng.laplace(0.0, 2.0 / epsilon, size=(N, ids.size))
    return np.stack([_one(ids, counts.astype(float), noise[i], tau, n) for i in range(N)])


hist.batch = _batch
