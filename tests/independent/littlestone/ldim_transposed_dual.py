"""littlestone_dimension -- BUG (structural: wrong class for some input shapes).

A plain brute-force recursion (correct), preceded by a "convenience" orientation guess:
truth tables are accepted either as (|H|, |X|) or as (|X|, |H|); the code assumes a class
has at least as many functions as points and transposes the array when it has fewer rows
than columns (non-empty input only).  So for every class with |H| < |X| it computes the
Ldim of the DUAL class (points as functions).

TRUTH: exact when |H| >= |X| (thresholds, points with or without -1, cube, intervals,
Figure 1 are all square or taller).  Wrong otherwise, e.g.
  H = {(+1, -1)} (one function on 2 points): true 0, returns 1;
  any single function that is not constant: true 0, returns 1 (> floor(log2 1) = 0);
  the 2 x 4 class [[1,-1,1,-1],[1,1,-1,-1]]: true 1, its dual is the full cube {+-1}^2,
  so it returns 2 > floor(log2 2) = 1 (Section 1 bound broken).
(The recursion has no memoisation: on the 64-point reference classes one call may exceed 60 s.)
"""
import numpy as np


def _rec(V):
    if V.shape[0] == 0:
        return -1
    best = 0
    for x in range(V.shape[1]):
        col = V[:, x]
        P = V[col > 0]
        M = V[col < 0]
        if P.shape[0] == 0 or M.shape[0] == 0:
            continue
        val = 1 + min(_rec(P), _rec(M))
        if val > best:
            best = val
    return best


def ldim(data, *, rng=None, **_):
    H = np.asarray(data, dtype=np.int8)
    if H.ndim != 2 or H.shape[0] == 0:
        return -1
    if H.shape[0] < H.shape[1]:
        H = H.T  # accept (|X|, |H|) truth tables too
    H = np.unique(H, axis=0)
    return int(_rec(H))
