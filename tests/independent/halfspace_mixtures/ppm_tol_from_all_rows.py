"""A_LearnHalf whose membership tolerance is 1e-9 * max(1, max|X|) over ALL rows (private ones included)
instead of the public rows only.

PRIVACY BUG: a private record far away (|x| = 1e12) inflates tol to 1e3, so every point within 1e3 of a
boundary (or of Aff) counts as inside: m(g) changes by up to n for many g at once. d = 1, public
points -1, -2, -3 (label 0), private 1, 2, 3, 6 (label 1); D' moves the record 6 to 1e12 (label 1).
The mistakes of the 8 halfspaces go from (7,0,6,0,5,1,4,2) to (4,3,4,3,4,3,4,3): output J = (0,) has
probability 0.0086 on D and 0.0817 on D', loss 2.25 > eps = 1 (the spec's mechanism: loss 0).
Identical to the spec when max|X| <= max(1, max|X_pub|).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ppm_correct import _candidates, _probs


def learn(data, *, rng, epsilon):
    X = np.asarray(data["X"], dtype=np.float64)
    cands, m, d = _candidates(X, data["y"], data["p"], tol_scale_rows=X)
    c = np.cumsum(_probs(m, epsilon))
    i = int(min(np.searchsorted(c, rng.random() * c[-1], side="right"), len(cands) - 1))
    return cands[i].copy()


def _batch(data, N, *, rng, epsilon):
    X = np.asarray(data["X"], dtype=np.float64)
    cands, m, d = _candidates(X, data["y"], data["p"], tol_scale_rows=X)
    c = np.cumsum(_probs(m, epsilon))
    idx = np.minimum(np.searchsorted(c, rng.random(N) * c[-1], side="right"), len(cands) - 1)
    return cands[idx]


learn.batch = _batch
