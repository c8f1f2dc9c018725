"""Littlestone dimension with Ldim(empty class) = 0 (the convention 'no tree at all has depth 0').

UTILITY BUG (structural): the spec (C1) fixes Ldim(empty) = -1; for the empty input this returns 0.
Non-empty classes get the right value (the empty side never enters the recursion there).
"""
import functools

import numpy as np


def ldim(data, **_):
    H = np.asarray(data)
    if H.ndim != 2 or H.shape[0] == 0:
        return 0
    H = np.unique(H.astype(np.int8), axis=0)
    rows = [tuple(r) for r in H]


    @functools.cache
    def rec(idx):
        if len(idx) <= 1:
            return 0
        best = 0
        for x in range(H.shape[1]):
            a = tuple(i for i in idx if rows[i][x] == 1)
            b = tuple(i for i in idx if rows[i][x] != 1)
            if a and b:
                best = max(best, 1 + min(rec(a), rec(b)))
        return best

    return int(rec(tuple(range(len(rows)))))
