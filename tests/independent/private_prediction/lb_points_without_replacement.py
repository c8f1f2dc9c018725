"""private_prediction_lower_bound_corrected -- BUG (instance generator; PARAMETER REGIME n <= d).

The hard instance should be S = n i.i.d. uniform points of [d] with labels b[X].  The programmer
writes  X = rng.choice(d, size=n, replace=(n > d))  ("no duplicate training points when we can
avoid it"): for n > d (the default point d = 400, n = 500) it is exactly the spec's law; for
n <= d the n points are DISTINCT (sampling without replacement).  b uniform (correct).
TRUTH:
  default point (d=400, n=500): law identical to the spec (exact).
  n <= d, e.g. d = 400, n = 200, eps = 0.1, s = 2: the number of copies t_i of a point is
  Bernoulli(n/d) = Bernoulli(0.5) instead of Bin(200, 1/400): P[t_i = 0] = 0.5 vs 0.60615,
  P[t_i = 1] = 0.5 vs 0.30384, P[t_i >= 2] = 0 vs 0.09001.
  Pr[Bin(n,1/d) > s] of the instance bound is 0 for this generator (true law) vs the spec's.
  Mean count per point is n/d in both, so a first-moment test does not see it; the count
  histogram / number of distinct points does (distinct points: always 200 vs E = 400(1-(1-1/400)^200) = 157.54).
"""
import numpy as np


def instance(data=None, *, rng, d=400, n=500, **_ignored):
    d = int(d)
    n = int(n)
    X = rng.choice(d, size=n, replace=(n > d))
    b = rng.integers(0, 2, size=d)
    return np.concatenate([X.astype(np.int64), b.astype(np.int64)])


def _batch(data, N, *, rng, d=400, n=500, **kw):
    return np.stack([instance(data, rng=rng, d=d, n=n) for _ in range(N)])


instance.batch = _batch
