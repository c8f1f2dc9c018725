"""BUG (expected class: claim violated).

Littlestone dimension by the brute-force recursion, but the loop over split points runs
over range(|X| - 1): an off-by-one that never considers the LAST column of the truth table.
Why it breaks the theorem: a point that is the only (or the best) split point is ignored, so
Ldim is underestimated. Concrete: thresholds with all N+1 cut points on N = 7 points
(Fact A1): without column 7, t_7 and t_8 (the all -1 function) coincide on the columns used,
the class behaves as 7 functions and the recursion returns floor(log2 7) = 2 instead of 3.
Also the 2-function class {+1, -1} on one point: returns 0 instead of 1 (Fact A3, N = 1).
Verified below (__main__).
"""
import numpy as np


def _ldim(rows, ncols):
    memo = {}

    def rec(idx):
        if len(idx) == 0:
            return -1
        key = idx
        if key in memo:
            return memo[key]
        best = 0
        sub = rows[list(idx)]
        for x in range(ncols - 1):          # BUG: should be range(ncols)
            col = sub[:, x]
            plus = tuple(i for i, v in zip(idx, col) if v == 1)
            minus = tuple(i for i, v in zip(idx, col) if v != 1)
            if plus and minus:
                v = 1 + min(rec(plus), rec(minus))
                if v > best:
                    best = v
        memo[key] = best
        return best

    return rec(tuple(range(rows.shape[0])))


def ldim(data, *, rng, N=7, H_size=8, d=1):
    a = np.asarray(data)
    if a.ndim != 2 or a.shape[0] == 0:
        return -1
    u = np.unique(a.astype(np.int8), axis=0)
    return int(_ldim(u, u.shape[1]))


if __name__ == "__main__":
    N = 7
    th = np.array([[1 if i <= j else -1 for j in range(1, N + 1)] for i in range(1, N + 2)], dtype=np.int8)
    print("thresholds all N=7:", ldim(th, rng=None), "(truth 3)")
    print("{+1,-1} on one point:", ldim(np.array([[1], [-1]], dtype=np.int8), rng=None), "(truth 1)")
