"""Stable histogram (Lemma 15) -- BUG: noise used only for the release decision.

The noisy count decides which items are released, but the estimate a_x reported for a
released item is the exact frequency c_x/n ("the estimate is only for accuracy, the
threshold already made it private")."""
import math

import numpy as np


def _run(ids, counts, noise, tau, n):
    noisy = counts + noise
    keep = noisy >= tau
    k = int(keep.sum())
    out = np.tile(np.array([-1.0, 0.0]), (n, 1))
    out[:k, 0] = ids[keep]
    out[:k, 1] = np.minimum(1.0, counts[keep] / n)     # BUG: exact frequency
    return out


def stable_hist(data, *, rng, epsilon, delta, eta, beta, n):
    data = np.asarray(data, dtype=np.int64)
    n = int(n)
    ids, counts = np.unique(data, return_counts=True)
    b = 2.0 / epsilon
    tau = 1.0 + b * math.log(1.0 / delta)
    return _run(ids, counts.astype(float), rng.laplace(0.0, b, size=counts.shape), tau, n)


def _batch(data, nruns, *, rng, epsilon, delta, eta, beta, n):
    data = np.asarray(data, dtype=np.int64)
    n = int(n)
    ids, counts = np.unique(data, return_counts=True)
    b = 2.0 / epsilon
    tau = 1.0 + b * math.log(1.0 / delta)
    noise = rng.laplace(0.0, b, size=(nruns, counts.size))
    return np.stack([_run(ids, counts.astype(float), noise[i], tau, n) for i in range(nruns)])


stable_hist.batch = _batch
