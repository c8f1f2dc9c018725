"""Stable histogram (Lemma 15) -- BUG: np.histogram with integer edges arange(min, max + 1).

np.histogram's last bin is closed, so the two largest ids (max - 1 and max) share one bin,
reported under id max - 1 (and with a single distinct id the one bin [v, v + 1) is used)."""
import math

import numpy as np


def stable_hist(data, *, rng, epsilon, delta, eta, beta, n):
    data = np.asarray(data, dtype=np.int64)
    n = int(n)
    lo, hi = int(data.min()), int(data.max())
    if hi > lo:
        edges = np.arange(lo, hi + 1)                  # BUG: needs hi + 2
    else:
        edges = np.array([lo, lo + 1])
    counts, edges = np.histogram(data, bins=edges)
    ids = edges[:-1].astype(np.int64)
    nz = counts >= 1
    ids, counts = ids[nz], counts[nz].astype(float)
    b = 2.0 / epsilon
    tau = 1.0 + b * math.log(1.0 / delta)
    noisy = counts + rng.laplace(0.0, b, size=counts.shape)
    keep = noisy >= tau
    k = int(keep.sum())
    out = np.tile(np.array([-1.0, 0.0]), (n, 1))
    out[:k, 0] = ids[keep]
    out[:k, 1] = np.minimum(1.0, noisy[keep] / n)
    return out
