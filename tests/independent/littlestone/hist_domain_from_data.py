"""Stable histogram (Lemma 15) that puts noisy counts on every id from 0 to the largest id in the data.

np.bincount gives a count for every id up to max(data), zeros included, and the author adds Lap(2/eps) to all
of them: the domain of the histogram is read from the data. An id that does not occur can then be released.

Truth (privacy bug): at the defaults (epsilon = 1, delta = 1e-6, n = 500; tau = 1 + 2 ln(1e6) = 28.631),
D = [0] * 500 and D' = [10**6] + [0] * 499 (one record replaced). On D only id 0 has a count. On D' the
999,999 ids 1..10**6 - 1 have count 0 and each is released independently with probability
P[Lap(2) >= tau] = exp(-tau/2)/2 = 3.03e-7, so some id in 1..10**6 - 1 is released with probability
1 - (1 - 3.03e-7)**999999 = 0.2616, against exactly 0 on D: infinite loss, delta needed 0.26 against 1e-6.
With the largest id at 10 (ids <= 10) the leak is 10 * 3.03e-7 = 3e-6 only.
"""
import math

import numpy as np


def hist(data, *, rng, epsilon, delta, **_):
    x = np.asarray(data, dtype=np.int64)
    n = x.shape[0]
    tau = 1 + (2 / epsilon) * math.log(1 / delta)
    counts = np.bincount(x)  # one cell per id in 0..max(x)
    noisy = counts + rng.laplace(0.0, 2 / epsilon, size=counts.shape)
    ids = np.flatnonzero(noisy >= tau)
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    k = min(ids.size, n)
    out[:k, 0] = ids[:k]
    out[:k, 1] = np.minimum(1.0, noisy[ids[:k]] / n)
    return out
