"""Stable histogram (Lemma 15) written with plain Python lists and a dict, per call only.

Counts of the items that occur (dict), ascending id order, one Lap(2/epsilon) per occurring item,
release iff c + Lap >= tau = 1 + (2/epsilon) ln(1/delta), estimate min(1, c~/n);
output float64 (len(data), 2): released rows in ascending id order, then (-1, 0) padding.
Any length of the sample is handled (rows = len(data)).
"""
import math

import numpy as np


def hist(data, *, rng, epsilon, delta, **_unused):
    items = [int(v) for v in np.asarray(data).reshape(-1).tolist()]
    n = len(items)
    counts = {}
    for it in items:
        counts[it] = counts.get(it, 0) + 1
    b = 2.0 / epsilon
    tau = 1.0 - b * math.log(delta)
    rows = []
    for it in sorted(counts):
        noisy = counts[it] + float(rng.laplace(0.0, b))
        if noisy >= tau:
            rows.append([float(it), min(1.0, noisy / n)])
    rows.extend([[-1.0, 0.0]] * (n - len(rows)))
    return np.array(rows, dtype=np.float64).reshape(n, 2)
