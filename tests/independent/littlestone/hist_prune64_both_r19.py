"""CONTROL for hist_percall_prune64 (stable_histogram): the same pruning in BOTH fn and .batch.

What it is: hist_percall_prune64 with its .batch pruning too (fn and .batch agree everywhere), to tell
whether that file passed because the audit sampled its exact .batch.  Not one of the 14 files.

TRUTH (fn and .batch) (exact; any eps, delta; e.g. the audit's delta = 0.05 point, n = 65):
  D  = (0, 1, 2, ..., 64): 65 distinct ids, all singletons -> all dropped -> L empty w.p. 1.
  D' = (0, 1, 2, ..., 63, 0): 64 distinct ids -> no pruning: ids 1..63 (count 1) each released w.p. delta/2.
  Event E = {L not empty}: P_D(E) = 0; P_D'(E) >= 1 - (1 - delta/2)^63 = 0.80 at delta = 0.05, 3.2e-5 at 1e-6.
  P_D'(E) - e^eps P_D(E) > delta at every delta in (0, 1): (eps, delta)-DP violated, infinite loss on E.
Expected: claim violated (exit 1).
"""
import math

import numpy as np


def _hist(ids, nrun, rng, epsilon, delta, prune):
    n = ids.size
    items, counts = np.unique(ids, return_counts=True)
    if prune and items.size > 64:
        keep = counts >= 2
        items, counts = items[keep], counts[keep]
    b = 2.0 / epsilon
    tau = 1.0 - (2.0 / epsilon) * math.log(delta)
    noisy = counts[None, :] + rng.laplace(0.0, b, size=(nrun, items.size))
    rel = noisy >= tau
    out = np.zeros((nrun, n, 2), dtype=np.float64)
    out[:, :, 0] = -1.0
    if items.size:
        pos = np.cumsum(rel, axis=1) - 1
        r, c = np.nonzero(rel)
        out[r, pos[r, c], 0] = items[c].astype(np.float64)
        out[r, pos[r, c], 1] = np.minimum(1.0, noisy[r, c] / n)
    return out


def hist_percall(data, *, rng, epsilon, delta, **params):
    return _hist(np.asarray(data, dtype=np.int64).ravel(), 1, rng, epsilon, delta, prune=True)[0]


def _batch(data, n, *, rng, epsilon, delta, **params):
    return _hist(np.asarray(data, dtype=np.int64).ravel(), n, rng, epsilon, delta, prune=True)


hist_percall.batch = _batch
