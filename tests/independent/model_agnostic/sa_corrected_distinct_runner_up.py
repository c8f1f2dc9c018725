"""Sub-sample and aggregate (Algorithm 4, corrected distance), the runner-up read as the second-largest DISTINCT
count: a tie at the top (two labels with the largest count, a gap of 0) is read as the gap to the next smaller
count, so a tied row looks stable. Otherwise as the spec: mode = first index of the largest count, dist* =
max(0, ceil(gap/2) - 1), Algorithm 3 with a re-drawn threshold after each bottom, halt after T + 1 bottoms.
Per call, no batch."""
import math

import numpy as np


def sa(data, *, rng, epsilon, delta, T, m, **_):
    counts = np.asarray(data, dtype=np.int64)
    lam = math.sqrt(32 * T * math.log(2 / delta)) / epsilon
    w = 2 * lam * math.log(2 * m / delta)
    out = np.full(counts.shape[0], -2, dtype=np.int64)
    bottoms = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i, row in enumerate(counts):
        if bottoms > T:
            break
        distinct = np.unique(row)[::-1]
        gap = int(distinct[0] - distinct[1]) if distinct.size > 1 else int(distinct[0])
        dist = max(0, math.ceil(gap / 2) - 1)
        if dist + rng.laplace(0.0, 2 * lam) > w_hat:
            out[i] = int(np.argmax(row))
        else:
            out[i] = -1
            bottoms += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out
