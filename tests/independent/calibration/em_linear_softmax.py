"""Exponential mechanism with the textbook float64 softmax in linear space: w = exp(-eps*l/(2 sens)),
p = w/sum(w), no max-shift.

PRIVACY BUG on large losses: exp underflows below about e^-745. At eps = sens = 1 the pair
losses (1486, 1490) vs (1487, 1491) (each moves by 1) gives P[1] = 0.2 on D (w_1 = e^-745 rounds
to the smallest subnormal) and exactly 0 on D' (e^-745.5 underflows to 0): infinite loss. When every
weight underflows, p = 0/0 = nan and rng.choice raises (ValueError). Identical to the spec on
losses below about 1400.
"""
import numpy as np


def em(data, *, rng, epsilon, sensitivity):
    w = np.exp(-epsilon * np.asarray(data, dtype=np.float64).reshape(-1) / (2.0 * sensitivity))
    p = w / w.sum()
    return int(rng.choice(p.size, p=p))


def _batch(data, n, *, rng, epsilon, sensitivity):
    w = np.exp(-epsilon * np.asarray(data, dtype=np.float64).reshape(-1) / (2.0 * sensitivity))
    p = w / w.sum()
    return rng.choice(p.size, size=n, p=p).astype(np.int64)


em.batch = _batch
