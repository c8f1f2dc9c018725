"""Stable histogram Hist keeping the noisy counts integral: the Laplace noise is cast with .astype(int64)
(truncation toward zero) before it is added to the integer counts. Unlike floor(c + L) (post-processing),
c + trunc(L) puts an atom of mass 1 - e^(-eps/2) on the exact count."""
import numpy as np


def _tau(epsilon, delta):
    return 1.0 + (2.0 / epsilon) * np.log(1.0 / delta)


def hist(data, *, rng, epsilon, delta, eta=None, beta=None, n=None):
    return hist_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta)[0]


def hist_batch(data, N, *, rng, epsilon, delta, eta=None, beta=None, n=None):
    data = np.asarray(data, dtype=np.int64)
    n = data.size
    ids, counts = np.unique(data, return_counts=True)
    noisy = counts[None, :] + rng.laplace(0.0, 2.0 / epsilon, size=(N, ids.size)).astype(np.int64)
    keep = noisy >= _tau(epsilon, delta)
    est = np.minimum(1.0, noisy / n)
    out = np.empty((N, n, 2))
    out[:, :, 0] = -1.0
    out[:, :, 1] = 0.0
    pos = np.cumsum(keep, axis=1) - 1
    r, c = np.nonzero(keep)
    out[r, pos[r, c], 0] = ids[c]
    out[r, pos[r, c], 1] = est[r, c]
    return out


hist.batch = hist_batch
