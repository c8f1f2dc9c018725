"""Stable histogram (seed 003 Lemma 15) with the spec's noise and threshold, per call, that lists the released
items by decreasing noisy estimate instead of ascending id. Post-processing of the spec's release, so private, but
not the output the spec defines (row j is not the j-th released id): differs from the spec. Written anew from a
round-10 tester's description."""
import math

import numpy as np


def stable_histogram(data, *, rng, epsilon, delta, n):
    S = np.asarray(data, dtype=np.int64).reshape(-1)
    ids, counts = np.unique(S, return_counts=True)
    noisy = counts + rng.laplace(0.0, 2.0 / epsilon, size=ids.size)
    tau = 1 + 2.0 / epsilon * math.log(1 / delta)
    keep = noisy >= tau
    rows = sorted(zip(ids[keep], np.minimum(1.0, noisy[keep] / n)), key=lambda r: -r[1])
    out = np.zeros((n, 2))
    out[:, 0] = -1
    for j, (i, a) in enumerate(rows):
        out[j] = (i, a)
    return out
