"""SOA with Ldim(empty) = 0 inside the argmax (the C1 convention missed), ties -> +1.

UTILITY BUG: when one side V^b(x) is empty and the other has Ldim 0, the tie goes to +1 even if
V^+(x) is empty: the SOA predicts a label no hypothesis in V gives. E.g. H = {h} with h(x) = -1:
it predicts +1 and makes 1 mistake on a realizable sequence of Ldim 0 (mistake bound d violated).
"""
import numpy as np


def _ldim(H, rows, memo):
    key = rows
    if key in memo:
        return memo[key]
    if len(rows) <= 1:
        memo[key] = 0          # BUG: the empty class also gets 0
        return 0
    best = 0
    for x in range(H.shape[1]):
        a = tuple(r for r in rows if H[r, x] == 1)
        b = tuple(r for r in rows if H[r, x] != 1)
        if a and b:
            best = max(best, 1 + min(_ldim(H, a, memo), _ldim(H, b, memo)))
    memo[key] = best
    return best


def soa(data, **_):
    H = np.asarray(data["H"]).astype(np.int8)
    H = np.unique(H, axis=0) if H.shape[0] else H
    xs = np.asarray(data["x"], dtype=np.int64).reshape(-1)
    ys = np.asarray(data["y"], dtype=np.int64).reshape(-1)
    memo = {}
    V = tuple(range(H.shape[0]))

    def pred(V):
        h = np.empty(H.shape[1], dtype=np.int64)
        for x in range(H.shape[1]):
            lp = _ldim(H, tuple(r for r in V if H[r, x] == 1), memo)
            lm = _ldim(H, tuple(r for r in V if H[r, x] != 1), memo)
            h[x] = 1 if lp >= lm else -1
        return h

    h = pred(V)
    ok = True
    preds = np.empty(xs.size, dtype=np.int64)
    mistakes = 0
    for t, (x, y) in enumerate(zip(xs, ys)):
        preds[t] = h[x]
        mistakes += int(preds[t] != y)
        if ok:
            side = tuple(r for r in V if H[r, x] == y)
            if side:
                V = side
                h = pred(V)
                continue
            ok = False
        h = h.copy()
        h[x] = y
    return np.concatenate([h, preds, [mistakes]]).astype(np.int64)
