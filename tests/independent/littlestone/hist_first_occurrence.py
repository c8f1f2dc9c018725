"""Stable histogram that lists the released items in order of first occurrence in the list (a dict
filled while scanning, Python's insertion order) instead of ascending id.

PRIVACY BUG: the order reveals which item came first. On the spec's first_occurrence_order pair
(2, 1^15, 2^14) vs (1, 1^15, 2^14) both items are released w.p. ~0.97 on both sides, and item 2 is
listed first only on D: loss infinite (P ~0.94 vs 0).
"""
import numpy as np


def hist(data, *, rng, epsilon, delta):
    seq = [int(v) for v in np.asarray(data).reshape(-1)]
    n = len(seq)
    counts = {}
    for x in seq:
        counts[x] = counts.get(x, 0) + 1
    tau = 1.0 + (2.0 / epsilon) * np.log(1.0 / delta)
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    j = 0
    for x, c in counts.items():
        noisy = c + rng.laplace(0.0, 2.0 / epsilon)
        if noisy >= tau:
            out[j] = (x, min(1.0, noisy / n))
            j += 1
    return out
