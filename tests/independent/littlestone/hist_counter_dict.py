"""Stable histogram (Lemma 15) with a Counter over the items that occur, Laplace noise as Exp - Exp.

Valid variant: counts only the ids that occur (a dict, never a dense array, so any id works), noise
Exp(2/eps) - Exp(2/eps), which is Lap(2/eps); release iff c + noise >= tau = 1 + (2/eps) ln(1/delta);
rows in ascending id order, (-1, 0) padding. One noise per distinct item, drawn in ascending id order: the law
is the spec's (the order in which independent noises are drawn does not matter). Per call, no batch.
"""
import math
from collections import Counter

import numpy as np


def hist(data, *, rng, epsilon, delta, **_):
    n = len(data)
    b = 2 / epsilon
    tau = 1 + b * math.log(1 / delta)
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    j = 0
    for item, count in sorted(Counter(int(v) for v in data).items()):
        noisy = count + rng.exponential(b) - rng.exponential(b)
        if noisy >= tau:
            out[j] = (item, min(1.0, noisy / n))
            j += 1
    return out
