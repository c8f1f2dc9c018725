"""VALID (standard_optimal_algorithm): the SOA as a finite automaton, Ldim by memoised bitmask recursion.

What it is: states are version spaces (bitmasks over the distinct rows of H) while the prefix is realizable and
overwritten predictor tables after it (Definition 8); each state's predictor takes argmax_b Ldim(V^b(x)) with
Ldim(empty) = -1 and ties to +1; Ldim(V) by the recursion max over splitting x of 1 + min(Ldim(V+), Ldim(V-)),
memoised per call (no cache kept between calls).  Output: h_{T+1} (|X|), the predictions yhat_t = h_t(x_t), the
mistake count, as one int64 array.
TRUTH: the spec's deterministic SOA (no privacy claim); every output equal to the spec's.  Expected: pass (exit 0).
"""
import numpy as np


def soa_valid(data, **params):
    H = np.asarray(data["H"], dtype=np.int64)
    H = np.unique(H.reshape(H.shape[0], -1), axis=0)
    nh, nx = H.shape
    x = np.asarray(data["x"], dtype=np.int64).ravel()
    y = np.asarray(data["y"], dtype=np.int64).ravel()
    pos = []
    for c in range(nx):
        m = 0
        for r in range(nh):
            if H[r, c] == 1:
                m |= 1 << r
        pos.append(m)
    memo = {0: -1}

    def ldim(V):
        r = memo.get(V)
        if r is not None:
            return r
        if V & (V - 1) == 0:
            memo[V] = 0
            return 0
        best = 0
        for c in range(nx):
            a = V & pos[c]
            b = V & ~pos[c]
            if a and b:
                v = 1 + min(ldim(a), ldim(b))
                if v > best:
                    best = v
        memo[V] = best
        return best

    def predictor(V):
        pr = np.empty(nx, dtype=np.int64)
        for c in range(nx):
            pr[c] = 1 if ldim(V & pos[c]) >= ldim(V & ~pos[c]) else -1
        return pr

    V = (1 << nh) - 1 if nh > 0 else 0
    h = predictor(V) if nh > 0 else np.ones(nx, dtype=np.int64)
    realizable = nh > 0
    preds = np.empty(x.size, dtype=np.int64)
    mistakes = 0
    for t in range(x.size):
        xt, yt = int(x[t]), int(y[t])
        preds[t] = h[xt]
        if preds[t] != yt:
            mistakes += 1
        if realizable:
            V2 = V & (pos[xt] if yt == 1 else ~pos[xt])
            if V2:
                V = V2
                h = predictor(V)
                continue
            realizable = False
        h = h.copy()
        h[xt] = yt
    return np.concatenate([h, preds, [mistakes]]).astype(np.int64)
