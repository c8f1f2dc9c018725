"""private_prediction_lower_bound_corrected -- BUG (the law of the released instance).

What it is: the hard instance generator, drawing the target bits lazily: "we only need
labels for the points that occur in S", so b_i is drawn (fair coin) only for the distinct
points of X, and b_i = 0 for every point that does not occur.  X is i.i.d. uniform on [d].
TRUTH: X exact; b_i = 0 w.p. 1 whenever t_i = 0 (probability (1 - 1/d)^n = 0.2865 at d = 400,
n = 500), so P[b_i = 1] = (1 - 0.2865)/2 = 0.3567 instead of 1/2, and b is no longer
independent of X.  Theorem 2's instance bound (every (eps, eps/3)-DP predictor has
p_i >= 0.3579 at the defaults) is derived for uniform independent b; on this instance a
DP predictor that leans to 0 when it sees no copy (P[1 | no copy] = 0.034, growing by
e^eps per copy + delta) gets p_i about 0.33 (computed with the one-record DP recursion), below
the bound; the trivial all-0 predictor gets p_i = 0.357 < 0.358.
"""
import numpy as np


def instance(data=None, *, rng, d=400, n=500, **params):
    d = int(d); n = int(n)
    X = rng.integers(0, d, size=n).astype(np.int64)
    b = np.zeros(d, dtype=np.int64)
    seen = np.unique(X)
    b[seen] = rng.integers(0, 2, size=seen.size)
    return np.concatenate([X, b])
