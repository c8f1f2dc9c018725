"""Stable histogram (Lemma 15) -- VALID variant: dense bincount, noise drawn for every id in
[0, max id] (absent ids' noises discarded), Laplace sampled as a difference of two
exponentials from a child generator, per-call only, output as a python list of lists,
prints a line to stderr.  Law: independent Lap(2/eps) on each occurring item, same threshold."""

import math


def stable_hist(data, *, rng, epsilon, delta, eta, beta, n, **unused):
    import numpy as np
    child = np.random.default_rng(rng.integers(2**63))
    data = np.asarray(data, dtype=np.int64)
    n = int(n)
    b = 2.0 / epsilon
    tau = 1.0 + b * math.log(1.0 / delta)
    if data.size and data.max() < 1_000_000:
        counts = np.bincount(data)
        ids = np.arange(counts.size)
    else:
        ids, counts = np.unique(data, return_counts=True)
    lap = b * (child.exponential(size=counts.size) - child.exponential(size=counts.size))
    noisy = counts + lap
    keep = (counts >= 1) & (noisy >= tau)
    rows = [[float(i), float(min(1.0, c / n))] for i, c in zip(ids[keep], noisy[keep])]
    rows += [[-1.0, 0.0]] * (n - len(rows))
    return rows
