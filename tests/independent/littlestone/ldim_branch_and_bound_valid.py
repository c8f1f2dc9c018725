"""VALID (expected class: pass).

Littlestone dimension computed differently from the plain recursion: rows are packed into
Python int bitmasks per column, the version space is a bitmask of rows, and the search is a
branch-and-bound: split points are tried in order of balance (most balanced first), and the
search stops as soon as the value reaches the upper bound floor(log2 |V|) (Ldim <= log2|V|
for any finite class), and a split x is skipped when 1 + floor(log2 min(|V+|,|V-|)) cannot beat
the current best (Ldim(V^b) <= floor(log2 |V^b|)). Both prunings only discard branches whose
value cannot exceed the best found, so the result is exactly the recursion's value.
Memo is local to the call. Empty class -> -1, duplicates removed (C1, C3).
Checked against a plain recursion on 3000 random classes below (__main__).
"""
import numpy as np


def _ldim_masks(colmasks, full):
    memo = {}

    def rec(V):
        if V == 0:
            return -1
        if V in memo:
            return memo[V]
        size = bin(V).count("1")
        ub = size.bit_length() - 1          # floor(log2 size)
        best = 0
        if ub >= 1:
            cands = []
            for cm in colmasks:
                p = V & cm
                if p and p != V:
                    q = V & ~cm
                    a, b = bin(p).count("1"), bin(q).count("1")
                    cands.append((min(a, b), p, q))
            cands.sort(key=lambda t: -t[0])
            for mn, p, q in cands:
                if 1 + (mn.bit_length() - 1) <= best:
                    break                   # sorted: no later split can do better
                v = 1 + min(rec(p), rec(q))
                if v > best:
                    best = v
                    if best >= ub:
                        break
        memo[V] = best
        return best

    return rec(full)


def ldim(data, *, rng, N=7, H_size=8, d=1):
    a = np.asarray(data)
    if a.ndim != 2 or a.shape[0] == 0:
        return -1
    u = np.unique(a.astype(np.int8), axis=0)
    n, m = u.shape
    colmasks = []
    for x in range(m):
        cm = 0
        for i in range(n):
            if u[i, x] == 1:
                cm |= 1 << i
        colmasks.append(cm)
    return int(_ldim_masks(colmasks, (1 << n) - 1))


def _plain(rows):
    if len(rows) == 0:
        return -1
    best = 0
    for x in range(rows.shape[1]):
        p, q = rows[rows[:, x] == 1], rows[rows[:, x] != 1]
        if len(p) and len(q):
            best = max(best, 1 + min(_plain(p), _plain(q)))
    return best


if __name__ == "__main__":
    g = np.random.default_rng(1)
    for t in range(3000):
        h, x = g.integers(0, 12), g.integers(1, 6)
        A = g.choice(np.array([-1, 1], dtype=np.int8), size=(h, x))
        u = np.unique(A, axis=0) if h else A
        assert ldim(A, rng=None) == _plain(u), (A,)
    print("ok 3000 random classes")
