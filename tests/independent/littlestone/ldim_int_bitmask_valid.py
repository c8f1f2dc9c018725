"""littlestone_dimension, VALID VARIANT (Python-int bitmasks, column quotient, memo, log-bound pruning).

The class is stored as the set of its DISTINCT rows (C3); a version space is a Python int bitmask over
them (no 64-bit limit).  Two domain points whose columns are equal or complementary split every version
space into the same unordered pair {V+, V-}, so only one point per such class of columns is tried (the
recursion takes a min over the two sides, which is symmetric).  The recursion is Section 3.2's:
Ldim(empty) = -1, Ldim(V) = 0 if no point splits V, else max over splitting x of 1 + min(Ldim(V+), Ldim(V-)),
memoised on the bitmask, and a branch stops early once it reaches the bound floor(log2 |V|) (Section 1),
which no split can exceed.  Same value as the definition on every finite class.
TRUTH: exact Ldim: thresholds N=7 -> 3 (all 8 cut points), 2 (t_1..t_7); cube N=7 -> 7; intervals N=1..15 ->
1,2,2,3,3,4,4,4,5,5,5,5,6,6,6 (computed below in REPORT.md); empty class -> -1.
"""
import numpy as np


def ldim(data, *, rng=None, **params):
    arr = np.asarray(data)
    if arr.ndim != 2 or arr.shape[0] == 0:
        return -1
    rows = sorted({tuple(int(v) for v in r) for r in arr.tolist()})
    k = len(rows)
    if k == 1:
        return 0
    ncol = len(rows[0])
    full = (1 << k) - 1
    seen = set()
    plus_masks = []
    for x in range(ncol):
        m = 0
        for i, r in enumerate(rows):
            if r[x] > 0:
                m |= 1 << i
        if m == 0 or m == full:
            continue
        key = min(m, full ^ m)
        if key in seen:
            continue
        seen.add(key)
        plus_masks.append(m)
    memo = {}

    def rec(V):
        c = bin(V).count("1")
        if c == 0:
            return -1
        if c == 1:
            return 0
        if V in memo:
            return memo[V]
        bound = c.bit_length() - 1            # floor(log2 |V|)
        best = 0
        for m in plus_masks:
            a = V & m
            if a == 0 or a == V:
                continue
            b = V & ~m
            ca, cb = bin(a).count("1"), bin(b).count("1")
            # 1 + min(...) <= 1 + floor(log2 min(|a|, |b|)); skip splits that cannot beat best
            if 1 + (min(ca, cb).bit_length() - 1) <= best:
                continue
            la = rec(a)
            if 1 + la <= best:
                continue
            val = 1 + min(la, rec(b))
            if val > best:
                best = val
                if best >= bound:
                    break
        memo[V] = best
        return best

    return int(rec(full))
