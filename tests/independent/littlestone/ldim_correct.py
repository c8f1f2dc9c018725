"""Littlestone dimension of a finite class by the mistake-tree recursion, memoised on bitmasks of rows.

Ldim(empty) = -1, Ldim(V) = max(0, max_x [V^+(x), V^-(x) non-empty] 1 + min(Ldim V^+, Ldim V^-))."""
import numpy as np


def _ldim_factory(H):
    H = np.asarray(H)
    n_rows, n_x = H.shape
    plus = []
    for x in range(n_x):
        m = 0
        for r in range(n_rows):
            if H[r, x] == 1:
                m |= 1 << r
        plus.append(m)
    full = (1 << n_rows) - 1
    memo = {}

    def ldim(mask):
        if mask == 0:
            return -1
        if mask & (mask - 1) == 0:
            return 0
        got = memo.get(mask)
        if got is not None:
            return got
        best = 0
        for x in range(n_x):
            a = mask & plus[x]
            b = mask & ~plus[x] & full
            if a and b:
                # 1 + min(...) can beat best only if both sides are large enough
                la = ldim(a)
                if la + 1 <= best:
                    continue
                lb = ldim(b)
                v = 1 + min(la, lb)
                if v > best:
                    best = v
        memo[mask] = best
        return best

    return ldim, full


def ldim(data, **_):
    H = np.asarray(data)
    if H.ndim != 2 or H.shape[0] == 0:
        return -1
    H = np.unique(H.astype(np.int8), axis=0)
    f, full = _ldim_factory(H)
    return int(f(full))
