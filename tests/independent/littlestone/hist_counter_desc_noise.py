"""Stable histogram Hist (seed 003 Lemma 15, constants of note 003 A8): noisy count c_x + Lap(2/epsilon)
for every item that occurs, released iff >= tau = 1 + (2/epsilon) ln(1/delta), estimate min(1, c~/n);
output (n, 2) float64 rows (id, a) in ascending id order, then (-1, 0). Written differently: counts with
collections.Counter over Python ints, the noises drawn in DESCENDING id order, each by the inverse CDF
from rng.random(), tau cached across calls (functools.lru_cache), unused keywords (eta, beta, n) via **_.
Batch: counts by np.unique, noise as (rng.standard_exponential - rng.standard_exponential) * b.
Law: the spec's (the noises are i.i.d., one per occurring item)."""
import collections
import functools
import math

import numpy as np


@functools.lru_cache(maxsize=32)
def _tau(epsilon, delta):
    return 1.0 + (2.0 / epsilon) * math.log(1.0 / delta)


def _lap_icdf(u, b):
    # u in [0, 1): Lap(b) by the inverse CDF
    if u < 0.5:
        return b * math.log(2.0 * u) if u > 0.0 else -math.inf
    return -b * math.log(2.0 * (1.0 - u))


def hist(data, *, rng, epsilon, delta, **_):
    items = [int(v) for v in np.ravel(data)]
    n = len(items)
    counts = collections.Counter(items)
    b = 2.0 / epsilon
    tau = _tau(float(epsilon), float(delta))
    noisy = {}
    for x in sorted(counts, reverse=True):
        noisy[x] = counts[x] + _lap_icdf(rng.random(), b)
    out = np.zeros((n, 2), dtype=np.float64)
    out[:, 0] = -1.0
    j = 0
    for x in sorted(noisy):
        if noisy[x] >= tau:
            out[j, 0] = x
            out[j, 1] = min(1.0, noisy[x] / n)
            j += 1
    return out


def _batch(data, N, *, rng, epsilon, delta, **_):
    items = np.asarray(data, dtype=np.int64).reshape(-1)
    n = items.size
    ids, counts = np.unique(items, return_counts=True)
    b = 2.0 / epsilon
    tau = _tau(float(epsilon), float(delta))
    k = ids.size
    noise = b * (rng.standard_exponential((N, k)) - rng.standard_exponential((N, k)))
    noisy = counts[None, :] + noise
    keep = noisy >= tau
    out = np.zeros((N, n, 2), dtype=np.float64)
    out[:, :, 0] = -1.0
    pos = np.cumsum(keep, axis=1) - 1
    r, c = np.nonzero(keep)
    out[r, pos[r, c], 0] = ids[c]
    out[r, pos[r, c], 1] = np.minimum(1.0, noisy[r, c] / n)
    return out


hist.batch = _batch
