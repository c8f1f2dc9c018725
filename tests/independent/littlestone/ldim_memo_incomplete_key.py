# littlestone_dimension -- BUGGY (the structural statement is broken on some classes; no privacy
# claim exists for this spec).
#
# The recursion is the spec's: Ldim(empty) = -1, Ldim(V) = 0 if no point splits V, otherwise
# max over splitting x of 1 + min(Ldim(V+), Ldim(V-)), with duplicate rows removed and the
# valid early stop at floor(log2 |V|).
#
# Bug: the memo table is keyed by a "canonical form" meant to let isomorphic version spaces share
# work: Ldim is invariant under permuting points, permuting functions and flipping the labels of a
# point, so the key is (|V|, sorted multiset over points x of min(#{h in V: h(x)=+1},
# #{h in V: h(x)=-1})). That key IS an invariant, but not a complete one: two non-isomorphic
# version spaces with the same size and the same column balances get the same entry. The table is
# also module-level (kept between calls, "the same sub-classes recur across calls").
#
# Effect: wrong Ldim values (one too high or too low) on some classes. In a fresh process: 4 of
# 6,000 random classes with |X| = 4-7 and 6-24 functions. After other classes have filled the
# table (the same process): about 1% of random classes with |X| <= 5, |H| <= 12 (10 of 1,000 in a
# row) and 2% with |X| = 4-7, |H| <= 24. Example (fresh process): the 16 functions on 5 points
#   [[-1,-1,1,-1,1],[-1,-1,1,1,1],[-1,1,-1,-1,1],[-1,1,-1,1,-1],[-1,1,-1,1,1],[-1,1,1,-1,-1],
#    [-1,1,1,-1,1],[-1,1,1,1,-1],[1,-1,-1,-1,1],[1,1,-1,-1,-1],[1,1,-1,-1,1],[1,1,-1,1,-1],
#    [1,1,-1,1,1],[1,1,1,-1,-1],[1,1,1,1,-1],[1,1,1,1,1]]
# have Ldim 3 (brute force) and this file returns 4. The reference classes of the spec
# (thresholds N = 1..39, points, intervals N = 1..15, cubes N = 1..7, Figure 1) come out right.
# No privacy claim is involved; the spec's structural statement (Section 3.2) is what breaks.
import numpy as np

_MEMO = {}


def _key(A):
    k = A.shape[0]
    pos = (A > 0).sum(axis=0)
    bal = np.minimum(pos, k - pos)
    return (k, tuple(sorted(int(b) for b in bal)))


def _ldim(A):
    k = A.shape[0]
    if k <= 1:
        return k - 1
    key = _key(A)
    hit = _MEMO.get(key)
    if hit is not None:
        return hit
    cap = k.bit_length() - 1            # floor(log2 |V|): Ldim can't exceed it
    pos = A > 0
    npos = pos.sum(axis=0)
    best = 0
    seen_cols = set()
    for x in range(A.shape[1]):
        if npos[x] == 0 or npos[x] == k:
            continue
        col = pos[:, x].tobytes()
        if col in seen_cols:            # identical columns restricted to V are interchangeable
            continue
        seen_cols.add(col)
        a = _ldim(A[pos[:, x]])
        if a + 1 <= best:
            continue
        b = _ldim(A[~pos[:, x]])
        best = max(best, 1 + min(a, b))
        if best >= cap:
            break
    _MEMO[key] = best
    return best


def littlestone_dimension(data, **params):
    A = np.asarray(data)
    if A.size == 0 or A.shape[0] == 0:
        return -1
    A = A.reshape(A.shape[0], -1).astype(np.int8)
    A = np.unique(A, axis=0)
    return int(_ldim(A))
