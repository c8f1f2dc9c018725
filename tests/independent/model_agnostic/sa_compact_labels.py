"""subsample_aggregate (000 Alg 4, as printed) -- BUG (privacy + Thm 3.11), input-property triggered.

Kind: "label compaction".  To save work on large label ranges, labels that NO chunk voted for
on ANY query (all-zero columns of the vote matrix) are dropped before the mode/runner-up
computation, but the released mode is the index in the COMPACTED label list (the map back to
the original label is forgotten).  When every label occurs somewhere, this is the spec's
algorithm exactly.

TRUTH (defaults eps=8, delta=1e-3, T=1, m=4: lam=1.9495, w=35.04):
  D  = [[0,100]]*4            -> label 0 never occurs, compacted to [[100]], mode index 0,
                                 dist = 100-0-1 = 99, released as label 0 w.p. 1 - S(99-w) ~ 1
  D' = [[1,99],[0,100]*3]     -> (one vote moved in row 1) nothing dropped, mode 1, dist 97,
                                 released as label 1.
  P_D[out[0] = 0] ~ 1,  P_D'[out[0] = 0] = 0: infinite loss, delta needed ~1.
  Monte Carlo (1e5 runs a side, see ../mc_f1.py): 1.0 vs 0.0.
  Thm 3.11 also breaks on any run where label 0 never gets a vote: e.g. all rows unanimous for
  label 1 -> every stable query is released as 0 (wrong) w.p. ~1.
"""
import math

import numpy as np


def _params(epsilon, delta, T, m):
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    return lam, w


def _dists_modes(votes):
    votes = np.asarray(votes, dtype=np.int64)
    if votes.ndim == 1:
        votes = votes[None, :]
    # drop labels nobody ever voted for (compaction) -- BUG: index never mapped back
    keep = np.flatnonzero(votes.sum(axis=0) > 0)
    if keep.size == 0:
        keep = np.arange(votes.shape[1])
    cv = votes[:, keep]
    modes = np.argmax(cv, axis=1)  # ties -> smallest index
    if cv.shape[1] >= 2:
        rest = cv.copy()
        rest[np.arange(cv.shape[0]), modes] = -1
        runner = np.maximum(rest.max(axis=1), 0)
    else:
        runner = np.zeros(cv.shape[0], dtype=np.int64)
    top = cv[np.arange(cv.shape[0]), modes]
    dist = np.maximum(0, top - runner - 1).astype(float)
    return modes.astype(np.int64), dist


def subsample_aggregate_batch(data, n, *, rng, epsilon, delta, T, m, beta=0.1):
    lam, w = _params(epsilon, delta, T, m)
    modes, dist = _dists_modes(data)
    rows = dist.shape[0]
    out = np.full((n, rows), -2, dtype=np.int64)
    c = np.zeros(n, dtype=np.int64)
    what = w + rng.laplace(0.0, lam, size=n)
    for i in range(rows):
        active = c <= T
        z = rng.laplace(0.0, 2.0 * lam, size=n)
        top = (dist[i] + z) > what
        rel = active & top
        bot = active & ~top
        out[rel, i] = modes[i]
        out[bot, i] = -1
        c[bot] += 1
        what = np.where(bot, w + rng.laplace(0.0, lam, size=n), what)
    return out


def subsample_aggregate(data, *, rng, epsilon, delta, T, m, beta=0.1):
    return subsample_aggregate_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, beta=beta)[0]


subsample_aggregate.batch = subsample_aggregate_batch
