"""Stable histogram (Lemma 15) -- VALID variant: counts by np.bincount, a dense array sized by the largest id
(written by the developers for the huge-id search: ids near 2^31 and 2^53 cannot be held, MemoryError on both sides).
Law: Lap(2/eps) on the count of each occurring id, released iff c + noise >= 1 + (2/eps) ln(1/delta), ascending ids."""
import math

import numpy as np


def hist(data, *, rng, epsilon, delta, n):
    x = np.asarray(data, dtype=np.int64)
    counts = np.bincount(x)
    ids = np.flatnonzero(counts)
    c = counts[ids]
    noisy = c + rng.laplace(0.0, 2.0 / epsilon, size=c.size)
    keep = noisy >= 1.0 + (2.0 / epsilon) * math.log(1.0 / delta)
    out = np.tile([-1.0, 0.0], (int(n), 1))
    out[:keep.sum(), 0] = ids[keep]
    out[:keep.sum(), 1] = np.minimum(1.0, noisy[keep] / n)
    return out
