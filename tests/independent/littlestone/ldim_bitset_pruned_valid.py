"""littlestone_dimension -- VALID VARIANT.

What it is: the brute-force recursion of the spec, written on bitsets instead of arrays:
  * duplicate rows removed with a Python set of row tuples (C3);
  * the class V is a Python int bitmask over the distinct rows (arbitrary precision, so
    any |H| and any |X|); each point x is pre-encoded as the bitmask P[x] of rows with
    h(x) = +1, so V^+(x) = V & P[x] and V^-(x) = V & ~P[x];
  * columns that are identical, or complements of each other, split every V the same way
    (the two sides swapped, min symmetric), so only one representative is kept; constant
    columns never split and are dropped;
  * memo per call (dict keyed by the bitmask), admissible pruning: stop as soon as the best
    value reaches floor(log2 |V|) = |V|.bit_length() - 1, a true upper bound (Section 1),
    and skip x whose smaller side cannot beat the current best (Ldim(W) <= floor(log2|W|)).
TRUTH: returns exactly Ldim(V) of the recursion (Ldim(empty) = -1, 0 for a single function);
pruning only skips branches that cannot exceed the current best.
"""
import sys

import numpy as np


def ldim(data, *, rng=None, **params):
    H = np.asarray(data)
    if H.ndim != 2 or H.shape[0] == 0:
        return -1
    rows = sorted(set(tuple(int(v) for v in r) for r in H.tolist()))
    m = len(rows)
    if m == 1:
        return 0
    npts = len(rows[0])
    cols = set()
    full = (1 << m) - 1
    for x in range(npts):
        mask = 0
        for i, r in enumerate(rows):
            if r[x] == 1:
                mask |= 1 << i
        if mask == 0 or mask == full:
            continue
        canon = min(mask, full ^ mask)
        cols.add(canon)
    P = sorted(cols)
    memo = {}
    sys.setrecursionlimit(max(1000, 10 * m + 100))

    def rec(V):
        if V in memo:
            return memo[V]
        n = bin(V).count("1")
        if n == 0:
            return -1
        if n == 1:
            return 0
        ub = n.bit_length() - 1
        best = 0
        for p in P:
            a = V & p
            if a == 0 or a == V:
                continue
            b = V & ~p
            small = min(bin(a).count("1"), bin(b).count("1"))
            if small.bit_length() - 1 + 1 <= best:
                continue
            val = 1 + min(rec(a), rec(b))
            if val > best:
                best = val
                if best >= ub:
                    break
        memo[V] = best
        return best

    return int(rec(full))
