"""littlestone_dimension -- BUG (int64 bit-packing loses columns >= 64).

What it is: brute-force Ldim recursion (Ldim(empty) = -1; Ldim(V) = 0 if no point
splits V; else max over splitting x of 1 + min(Ldim(V+), Ldim(V-))), memoised on
sets of functions. For speed each truth table is packed into one int64 bitmask
(bit x set iff h(x) = +1) with weights np.left_shift(1, arange(|X|)); de-duplication
(C3) and the splits are done on the packed integers, over the bit positions
0..min(|X|, 64)-1.

BUG: numpy's int64 left shift by >= 64 gives 0, so columns x >= 64 get weight 0:
they are invisible both to de-duplication and to the splits. Exact for |X| <= 64
(bit 63 is the sign bit, still distinct), which is every reference class of the
spec (N <= 64).

TRUTH: X = {0..64} (|X| = 65), H = {all -1, point function at x = 64}: two
distinct functions that differ at x = 64, so Ldim(H) = 1 (x = 64 splits H into
two non-empty singletons of Ldim 0). This file returns 0 (both rows pack to the
same integer, de-dup leaves one function). In general any class is computed on its
restriction to the first 64 points, so the value is wrong whenever points >= 64
are needed for a split.
"""
from functools import cache

import numpy as np


def _pack(H):
    H = np.asarray(H)
    m = H.shape[1]
    w = np.left_shift(np.int64(1), np.arange(m, dtype=np.int64))  # BUG for m > 64
    return ((H > 0).astype(np.int64) * w).sum(axis=1), min(m, 64)


def littlestone(data, *, rng=None, **params):
    H = np.asarray(data)
    if H.ndim != 2 or H.shape[0] == 0:
        return -1
    packed, nbits = _pack(H)
    funcs = tuple(sorted(set(int(p) for p in packed)))
    [(1 << b) if b < 63 else -(1 << 63) for b in range(nbits)]

    def bit(f, b):
        if b == 63:
            return f < 0
        return (f >> b) & 1 == 1

    @cache
    def ld(V):
        if len(V) == 0:
            return -1
        if len(V) == 1:
            return 0
        cap = len(V).bit_length() - 1        # floor(log2 |V|)
        best = 0
        for b in range(nbits):
            plus = tuple(f for f in V if bit(f, b))
            if 0 < len(plus) < len(V):
                minus = tuple(f for f in V if not bit(f, b))
                if min(len(plus), len(minus)).bit_length() - 1 + 1 <= best:
                    continue
                val = 1 + min(ld(plus), ld(minus))
                if val > best:
                    best = val
                    if best >= cap:
                        break
        return best

    return int(ld(funcs))
