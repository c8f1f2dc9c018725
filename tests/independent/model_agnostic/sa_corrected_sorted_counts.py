"""Sub-sample and aggregate (Algorithm 4, corrected distance) with the runner-up from a sorted copy.

Valid variant: mode = first index of the largest count (ties to the smallest label, the spec's rule), gap =
largest count minus second largest of the sorted counts (equal to the largest count among the other labels),
dist* = max(0, ceil(gap/2) - 1), then Algorithm 3: top iff dist* + Lap(2 lam) > w + Lap(lam) (released label:
the mode), bottom re-draws the threshold, halt after T + 1 bottoms. Laplace as Exp - Exp. Per call, no batch.
"""
import math

import numpy as np


def _lap(rng, b):
    return rng.exponential(b) - rng.exponential(b)


def sa(data, *, rng, epsilon, delta, T, m, **_):
    counts = np.asarray(data, dtype=np.int64)
    lam = math.sqrt(32 * T * math.log(2 / delta)) / epsilon
    w = 2 * lam * math.log(2 * m / delta)
    out = np.full(counts.shape[0], -2, dtype=np.int64)
    c = 0
    w_hat = w + _lap(rng, lam)
    for i, row in enumerate(counts):
        if c > T:
            break
        top2 = np.sort(row)[::-1][:2]
        dist = max(0, math.ceil((top2[0] - top2[1]) / 2) - 1)
        if dist + _lap(rng, 2 * lam) > w_hat:
            out[i] = int(np.argmax(row))
        else:
            out[i] = -1
            c += 1
            w_hat = w + _lap(rng, lam)
    return out
