"""littlestone_dimension, BUG (structural; input-property triggered): beam-pruned recursion on wide domains.

Exact Section 3.2 recursion (memo on the tuple of surviving distinct rows) while the version space has at
most 8 splitting points.  As a 'speed-up for wide domains', when more than 8 points split the current
version space only the BEAM = 4 points with the most balanced split (smallest | |V+| - |V-| |, ties by
lowest index) are tried.  The result is then a LOWER bound on Ldim that can be strictly smaller.
Classes with at most 8 splitting points (every reference class at N <= 8, Figure 1) are computed exactly.
TRUTH: the class below (18 distinct functions on |X| = 9 points, found by a search over random sparse classes
with a planted sub-cube) has Ldim 3 (brute-force recursion and ldim_bitmask.py agree); this file returns 2.
Section 3.2's recursion/definition is violated (the output is not the Ldim).  Reference classes (thresholds,
points, cube, intervals N <= 15) and 3000 uniformly random 9-12-point classes are all computed exactly.
  rows (+1 -> 1, -1 -> 0), points 0..8:
  000000000 000000001 000000010 000000100 000001000 000010000 000011001 000100000 000100101
  000101000 001000000 001000100 010000000 010000100 010001010 011000000 100010001 101000000
"""
import numpy as np

BEAM = 4
WIDE = 8


def ldim(data, *, rng=None, **params):
    H = np.asarray(data)
    if H.ndim != 2 or H.shape[0] == 0:
        return -1
    H = np.unique(H, axis=0)
    memo = {}

    def rec(idx):
        if len(idx) == 0:
            return -1
        if len(idx) == 1:
            return 0
        key = tuple(idx)
        if key in memo:
            return memo[key]
        V = H[list(idx)]
        plus = (V > 0).sum(axis=0)
        split = np.nonzero((plus > 0) & (plus < len(idx)))[0]
        if len(split) > WIDE:
            imbalance = np.abs(2 * plus[split] - len(idx))
            order = np.argsort(imbalance, kind="stable")
            split = split[order[:BEAM]]
        best = 0
        for x in split:
            a = [i for i in idx if H[i, x] > 0]
            b = [i for i in idx if H[i, x] < 0]
            best = max(best, 1 + min(rec(a), rec(b)))
        memo[key] = best
        return best

    return int(rec(list(range(H.shape[0]))))
