"""PRIVACY BUG (stable_histogram): items "more than 10 noise scales below the threshold" are skipped without noise.

What it is: an optimisation -- an item whose TRUE count c satisfies c < tau - 10 b (b = 2/eps) "has release
probability below e^-10/2 = 2.3e-5, so it is never released and gets no noise".  Everything else is the spec
(Lap(b) on the kept items' counts, release iff c~ >= tau, a = min(1, c~/n), ascending ids, (-1, 0) padding).
The cut compares a true count with a data-independent number: one record moved across it takes an item's
release probability from 0.5 e^-(tau-c)/b (about 2.7e-5) to exactly 0.  At delta = 0.05 or 0.02 (where the
stress cases live) tau - 10 b < 0 and nothing is ever skipped, so the bug exists only at small delta.

TRUTH (exact, defaults eps = 1, delta = 1e-6, n = 500): b = 2, tau = 1 + 2 ln 1e6 = 28.631, cut 8.631.
  D  = 9 copies of item 1, then 491 copies of item 0;   D' = 8 copies of item 1, then 492 copies of item 0.
  Event E = {1 in L}:  P_D(E) = 0.5 exp(-(28.631 - 9)/2) = 2.72e-5,  P_D'(E) = 0 (count 8 < 8.631: skipped).
  P_D(E) - e^eps P_D'(E) = 2.72e-5 > delta = 1e-6: (1, 1e-6)-DP violated (27x delta; infinite loss on E).
  Likewise at delta/100 = 1e-8: tau = 37.84, cut 17.84, count 18 vs 17: 2.5e-5 against 1e-8.
Expected: claim violated (exit 1).
"""
import math

import numpy as np


def _run(ids, nrun, rng, epsilon, delta):
    n = ids.size
    items, counts = np.unique(ids, return_counts=True)
    b = 2.0 / epsilon
    tau = 1.0 - (2.0 / epsilon) * math.log(delta)
    keepit = counts >= tau - 10.0 * b                  # the "never released anyway" cut (on true counts)
    items, counts = items[keepit], counts[keepit]
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


def hist_skip(data, *, rng, epsilon, delta, **params):
    return _run(np.asarray(data, dtype=np.int64).ravel(), 1, rng, epsilon, delta)[0]


def _batch(data, n, *, rng, epsilon, delta, **params):
    return _run(np.asarray(data, dtype=np.int64).ravel(), n, rng, epsilon, delta)


hist_skip.batch = _batch
