"""private_prediction_lower_bound_corrected (the hard-instance generator), BUG: the points are drawn with
rng.integers(1, d) ("points are 1..d") while the spec's domain is {0, ..., d-1}: the exclusive upper bound
and the 0-based domain combine into an off-by-one: point 0 never occurs, every other point has
probability 1/(d-1) instead of 1/d.

Kind: off-by-one in an integer range (a law bug; no privacy claim of its own).

TRUTH (exact): at the defaults (d = 400, n = 500): P[X_j = 0] = 0 instead of 1/400 = 0.0025;
P[X_j = i] = 1/399 for i >= 1; the count of point 0 in S is 0 always (P = 0.2861 = (1 - 1/400)^500 under the
spec). TV distance per example = 1/400; per sample S: 1 - (399/400)^500 = 0.714. Labels b uniform, correct.
"""
import numpy as np


def instance(data, *, rng, d, epsilon, alpha, n, s):
    X = rng.integers(1, d, size=n)          # BUG: should be rng.integers(0, d, size=n)
    b = rng.integers(0, 2, size=d)
    return np.concatenate([X, b]).astype(np.int64)
