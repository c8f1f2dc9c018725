"""Stable histogram Hist (Lemma 15), written with a dict and python lists.

Counts in a dict (first-occurrence order), one Lap(2/epsilon) per item that occurs, drawn as
Exp(b) * a random sign (an exact Laplace: the sign is independent of the magnitude and a
continuous magnitude has no atom at 0), release iff c~ >= tau = 1 - (2/epsilon) ln(delta),
estimate min(1, c~/n). The rows are emitted in ascending id order as a python list of [id, a]
pairs, padded with [-1, 0.0] to n rows. The noises are i.i.d., so the draw order does not matter.
"""
import math
from collections import Counter


def hist(data, *, rng, epsilon, delta, n, eta=None, beta=None, **unused):
    n = int(n)
    b = 2.0 / epsilon
    tau = 1.0 - b * math.log(delta)
    counts = Counter(int(v) for v in data)
    released = {}
    for item, c in counts.items():
        mag = rng.exponential(b)
        sign = 1.0 if rng.random() < 0.5 else -1.0
        noisy = c + sign * mag
        if noisy >= tau:
            released[item] = min(1.0, noisy / n)
    rows = [[float(i), released[i]] for i in sorted(released)]
    rows += [[-1.0, 0.0] for _ in range(n - len(rows))]
    return rows


def _batch(data, N, *, rng, epsilon, delta, n, **unused):
    import numpy as np
    n = int(n)
    b = 2.0 / epsilon
    tau = 1.0 - b * math.log(delta)
    ids, counts = np.unique(np.asarray(data, dtype=np.int64), return_counts=True)
    mag = rng.exponential(b, size=(N, ids.size))
    sign = np.where(rng.random((N, ids.size)) < 0.5, 1.0, -1.0)
    noisy = counts[None, :] + sign * mag
    keep = noisy >= tau
    out = np.zeros((N, n, 2))
    out[:, :, 0] = -1.0
    # ascending ids (np.unique is sorted): compact the kept columns to the front of each run
    order = np.argsort(~keep, axis=1, kind="stable")
    k_sorted = np.take_along_axis(keep, order, axis=1)
    id_sorted = ids[order]
    a_sorted = np.minimum(1.0, np.take_along_axis(noisy, order, axis=1) / n)
    m = ids.size
    out[:, :m, 0] = np.where(k_sorted, id_sorted, -1.0)
    out[:, :m, 1] = np.where(k_sorted, a_sorted, 0.0)
    return out


hist.batch = _batch
