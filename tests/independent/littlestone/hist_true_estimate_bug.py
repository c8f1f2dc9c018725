"""Stable histogram Hist: noisy counts decide which items are released, but the estimate column is filled
from the variable holding the exact counts (`freq` computed once before noise and reused)."""
import numpy as np


def _one(ids, counts, noise, n, tau):
    noisy = counts + noise
    freq = np.minimum(1.0, counts / n)          # BUG: should be min(1, noisy/n)
    keep = noisy >= tau
    out = np.full((n, 2), [-1.0, 0.0])
    k = int(keep.sum())
    out[:k, 0] = ids[keep]
    out[:k, 1] = freq[keep]
    return out


def hist(data, *, rng, epsilon, delta, eta=None, beta=None, n=None):
    data = np.asarray(data, dtype=np.int64)
    n = data.size
    b = 2.0 / epsilon
    tau = 1.0 + b * np.log(1.0 / delta)
    ids, counts = np.unique(data, return_counts=True)
    return _one(ids, counts, rng.laplace(0.0, b, size=ids.size), n, tau)


def hist_batch(data, N, *, rng, epsilon, delta, eta=None, beta=None, n=None):
    data = np.asarray(data, dtype=np.int64)
    n = data.size
    b = 2.0 / epsilon
    tau = 1.0 + b * np.log(1.0 / delta)
    ids, counts = np.unique(data, return_counts=True)
    noise = rng.laplace(0.0, b, size=(N, ids.size))
    return _batch(ids, counts, noise, n, tau, est=np.minimum(1.0, counts / n)[None, :].repeat(N, 0))


def _batch(ids, counts, noise, n, tau, est):
    N = noise.shape[0]
    noisy = counts[None, :] + noise
    keep = noisy >= tau
    out = np.empty((N, n, 2))
    out[:, :, 0] = -1.0
    out[:, :, 1] = 0.0
    # position of each kept item among kept items (ascending id order preserved)
    pos = np.cumsum(keep, axis=1) - 1
    r, c = np.nonzero(keep)
    out[r, pos[r, c], 0] = ids[c]
    out[r, pos[r, c], 1] = est[r, c]
    return out


hist.batch = hist_batch
