"""Stable histogram with the textbook threshold tau = 1 + (2/eps) ln(2/delta) (the spec's notes call
this 'a more conservative textbook variant'), dict-based counting, one run at a time (no batch).

Valid variant: a count-1 item is released with probability delta/4 instead of delta/2; every other
pair's loss is unchanged (<= eps). Accuracy at the spec's n_required still holds (the heavy item
clears a threshold 1.39 higher with probability 1 - 2e-4 at the defaults).
"""
import math
from collections import Counter

import numpy as np


def hist(data, *, rng, epsilon, delta):
    items = [int(v) for v in np.asarray(data).reshape(-1)]
    n = len(items)
    counts = Counter(items)
    tau = 1.0 + (2.0 / epsilon) * math.log(2.0 / delta)
    released = []
    for x in sorted(counts):
        noisy = counts[x] + rng.laplace(0.0, 2.0 / epsilon)
        if noisy >= tau:
            released.append((x, min(1.0, noisy / n)))
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    for j, (x, a) in enumerate(released):
        out[j] = (x, a)
    return out
