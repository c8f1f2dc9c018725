"""private_classification_queries (000 Sec. 4.1 instance of Alg 4) -- BUG (privacy), input-property
triggered (duplicate query rows).

Kind: "answer memo for repeated queries".  A query row identical to an earlier row of the same
call (same vote counts, e.g. the same public point asked twice) is answered with the earlier
row's released answer instead of a fresh noisy test ("consistent answers for repeated
queries").  The counter/threshold bookkeeping is kept: a copied bottom still costs c += 1 and
re-draws w_hat.  With all rows distinct it is the spec's algorithm exactly.

TRUTH (defaults eps=8, delta=1e-3, T=1, m=4: lam=1.9495, w=35.04):
  D  = [[68,32],[68,32],[68,32],[68,32]]  (dist 35 on every row; rows 2-4 copy row 1)
  D' = [[67,33],[68,32],[68,32],[68,32]]  (one vote moved in row 1 only: dist 33 there)
  Event E = {out[0] = 0 and out[1] = -1}: impossible on D (out[1] is a copy of out[0]);
  on D' row 1 and row 2 are separate tests: P_D'[E] = P[33 + Z1 > W, 35 + Z2 <= W], W = w + Lap(lam).
  Monte Carlo 1e6 a side (../mc_f4.py): P_D[E] = 0, P_D'[E] = 0.1328 -> infinite loss,
  delta needed >= 0.133 >> 1e-3.
"""
import math

import numpy as np


def _params(epsilon, delta, T):
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    return lam


def _rows(votes):
    v = np.asarray(votes, dtype=np.int64)
    if v.ndim == 1:
        v = v[None, :]
    modes = np.argmax(v, axis=1)
    rest = v.copy()
    rest[np.arange(v.shape[0]), modes] = -1
    runner = np.maximum(rest.max(axis=1), 0) if v.shape[1] > 1 else np.zeros(v.shape[0], np.int64)
    top = v[np.arange(v.shape[0]), modes]
    dist = np.maximum(0, top - runner - 1).astype(float)
    # first earlier identical row (memo key), -1 if none
    src = np.full(v.shape[0], -1)
    seen = {}
    for i, r in enumerate(map(tuple, v.tolist())):
        if r in seen:
            src[i] = seen[r]
        else:
            seen[r] = i
    return modes.astype(np.int64), dist, src


def pcq_batch(data, n, *, rng, epsilon, delta, T, m, **theorem_params):
    lam = _params(epsilon, delta, T)
    w = 2.0 * lam * math.log(2.0 * m / delta)
    modes, dist, src = _rows(data)
    rows = dist.shape[0]
    out = np.full((n, rows), -2, dtype=np.int64)
    c = np.zeros(n, dtype=np.int64)
    what = w + rng.laplace(0.0, lam, size=n)
    for i in range(rows):
        active = c <= T
        if src[i] >= 0:
            prev = out[:, src[i]]
            # a memoised answer; an unanswered (-2) source cannot occur while active
            out[active, i] = prev[active]
            bot = active & (prev == -1)
        else:
            z = rng.laplace(0.0, 2.0 * lam, size=n)
            top = (dist[i] + z) > what
            out[active & top, i] = modes[i]
            bot = active & ~top
            out[bot, i] = -1
        c[bot] += 1
        what = np.where(bot, w + rng.laplace(0.0, lam, size=n), what)
    return out


def pcq(data, *, rng, epsilon, delta, T, m, **theorem_params):
    return pcq_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0]


pcq.batch = pcq_batch
