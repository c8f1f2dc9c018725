"""PRIVACY BUG (stable_histogram): counts kept in 2^20 hashed buckets, each reported under its smallest id.

What it is: "the domain of ids is unbounded", so the counts live in a fixed table of 2^20 buckets
(bucket = id & (2^20 - 1)); each occupied bucket gets one Lap(2/eps) count and is released under its
representative, the smallest id the data put in it.  Without collisions (every id below 2^20, or distinct
residues) this is exactly the spec.  With a collision the representative is chosen by the private data:
removing the one record holding the smaller id renames the whole bucket.

TRUTH (exact, defaults eps = 1, delta = 1e-6, n = 500): ids 5 and 2^20 + 5 = 1048581 collide.
  D  = 499 copies of 1048581, then one 5;   D' = 499 copies of 1048581, then one 7.
  D : bucket 5 has count 500, representative 5           -> row (5, ~1.0) released w.p. P[500 + Lap(2) >= 28.6] ~ 1.
  D': bucket 5 has count 499, representative 1048581    -> id 5 never appears (7 released w.p. delta/2).
  Event E = {5 in L}: P_D(E) ~ 1, P_D'(E) = 0: loss infinite, delta-violation ~1 (claim (1, 1e-6)).
Expected: claim violated (exit 1).
"""
import math

import numpy as np

MASK = (1 << 20) - 1


def _run(ids, nrun, rng, epsilon, delta):
    n = ids.size
    bucket = ids & MASK
    order = np.lexsort((ids, bucket))
    bs = bucket[order]
    first = np.r_[True, bs[1:] != bs[:-1]]
    starts = np.flatnonzero(first)
    counts = np.diff(np.r_[starts, bs.size])
    reps = ids[order][starts]                          # smallest id in each bucket
    o2 = np.argsort(reps, kind="stable")
    reps, counts = reps[o2], counts[o2]
    b = 2.0 / epsilon
    tau = 1.0 - (2.0 / epsilon) * math.log(delta)
    noisy = counts[None, :] + rng.laplace(0.0, b, size=(nrun, reps.size))
    rel = noisy >= tau
    out = np.zeros((nrun, n, 2), dtype=np.float64)
    out[:, :, 0] = -1.0
    pos = np.cumsum(rel, axis=1) - 1
    r, c = np.nonzero(rel)
    out[r, pos[r, c], 0] = reps[c].astype(np.float64)
    out[r, pos[r, c], 1] = np.minimum(1.0, noisy[r, c] / n)
    return out


def hist_hashed(data, *, rng, epsilon, delta, **params):
    return _run(np.asarray(data, dtype=np.int64).ravel(), 1, rng, epsilon, delta)[0]


def _batch(data, n, *, rng, epsilon, delta, **params):
    return _run(np.asarray(data, dtype=np.int64).ravel(), n, rng, epsilon, delta)


hist_hashed.batch = _batch
