"""Standard Optimal Algorithm with Definition 8's non-realizable extension (seed 003 Section 3.2).

Version space V; predictor h_V(x) = argmax_b Ldim(V^b(x)), ties -> +1, Ldim(empty) = -1. On each
example (x, y): predict h(x); if V^y(x) is non-empty, V <- V^y(x) and h <- h_V; otherwise the prefix
is no longer realizable and from then on h(x) <- y (kept elsewhere). Output: [h (|X|), predictions
(T), mistakes]."""
import numpy as np


class _Ldim:
    def __init__(self, H):
        self.H = H
        n_rows, n_x = H.shape
        self.plus = [sum(1 << r for r in range(n_rows) if H[r, x] == 1) for x in range(n_x)]
        self.full = (1 << n_rows) - 1
        self.memo = {}

    def __call__(self, mask):
        if mask == 0:
            return -1
        if mask & (mask - 1) == 0:
            return 0
        got = self.memo.get(mask)
        if got is not None:
            return got
        best = 0
        for p in self.plus:
            a, b = mask & p, mask & ~p & self.full
            if a and b:
                la = self(a)
                if la + 1 <= best:
                    continue
                v = 1 + min(la, self(b))
                best = max(best, v)
        self.memo[mask] = best
        return best


def _predictor(L, mask, tie):
    h = np.empty(len(L.plus), dtype=np.int64)
    for x, p in enumerate(L.plus):
        lp, lm = L(mask & p), L(mask & ~p & L.full)
        h[x] = 1 if lp > lm else (-1 if lm > lp else tie)
    return h


def soa(data, *, tie=1, **_):
    H = np.asarray(data["H"]).astype(np.int8)
    H = np.unique(H, axis=0) if H.shape[0] else H
    xs = np.asarray(data["x"], dtype=np.int64).reshape(-1)
    ys = np.asarray(data["y"], dtype=np.int64).reshape(-1)
    L = _Ldim(H)
    mask = L.full
    h = _predictor(L, mask, tie)
    realizable = True
    preds = np.empty(xs.size, dtype=np.int64)
    mistakes = 0
    for t, (x, y) in enumerate(zip(xs, ys)):
        preds[t] = h[x]
        mistakes += int(preds[t] != y)
        if realizable:
            side = mask & L.plus[x] if y == 1 else mask & ~L.plus[x] & L.full
            if side:
                if side != mask:
                    mask = side
                    h = _predictor(L, mask, tie)
                continue
            realizable = False
        h = h.copy()
        h[x] = y
    return np.concatenate([h, preds, [mistakes]]).astype(np.int64)
