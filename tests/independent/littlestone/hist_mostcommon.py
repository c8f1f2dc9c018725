"""Stable histogram (Lemma 15) -- BUG: ids and counts zipped in different orders.

Counter.most_common() gives the counts in descending-count order while the ids are
taken sorted ascending (the canonical output order), so the k-th smallest id gets the
k-th largest count.  When the item with the largest count is not the smallest id, a
count-1 item can be reported with a large count (and released)."""
import math
from collections import Counter

import numpy as np


def stable_hist(data, *, rng, epsilon, delta, eta, beta, n):
    data = np.asarray(data, dtype=np.int64)
    n = int(n)
    cnt = Counter(data.tolist())
    ids = sorted(cnt)                               # canonical ascending order
    counts = [c for _, c in cnt.most_common()]      # BUG: descending-count order
    b = 2.0 / epsilon
    tau = 1.0 + b * math.log(1.0 / delta)
    noisy = np.asarray(counts, dtype=float) + rng.laplace(0.0, b, size=len(counts))
    out = np.tile(np.array([-1.0, 0.0]), (n, 1))
    j = 0
    for i, c in zip(ids, noisy):
        if c >= tau:
            out[j, 0] = float(i)
            out[j, 1] = min(1.0, c / n)
            j += 1
    return out
