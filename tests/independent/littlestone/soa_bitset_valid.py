"""standard_optimal_algorithm -- VALID VARIANT.

What it is: the SOA with Definition 8's extension, written on bitsets and in the closed form
the spec states:
  * distinct rows of H (C3) as bit positions; the version space V_t is a Python-int bitmask;
    point x is encoded as the mask P[x] of rows with h(x) = +1;
  * Ldim by the memoised bitmask recursion (Ldim(empty) = -1, C1; admissible pruning at
    floor(log2 |V|)); memo local to the call;
  * prediction at x: +1 iff Ldim(V & P[x]) >= Ldim(V & ~P[x]) (ties +1, C2);
  * once V becomes empty (the prefix is not realizable) the predictor is frozen at the SOA
    predictor h of the last non-empty version space, and each later example overwrites
    h(x_t) = y_t after the prediction h(x_t) is made (later ones win);
  * output: int64 array h (|X|), predictions (T), mistakes.
TRUTH: the spec's deterministic output on every input (Definition 8 / closed form).
"""
import numpy as np


def _ldim_factory(P, m):
    memo = {}

    def L(V):
        if V == 0:
            return -1
        r = memo.get(V)
        if r is not None:
            return r
        n = bin(V).count("1")
        if n == 1:
            memo[V] = 0
            return 0
        ub = n.bit_length() - 1
        best = 0
        for p in P:
            a = V & p
            if a == 0 or a == V:
                continue
            val = 1 + min(L(a), L(V & ~p))
            if val > best:
                best = val
                if best >= ub:
                    break
        memo[V] = best
        return best
    return L


def soa(data, *, rng=None, **params):
    H = np.asarray(data["H"])
    xs = [int(v) for v in np.asarray(data["x"]).ravel()]
    ys = [int(v) for v in np.asarray(data["y"]).ravel()]
    npts = H.shape[1]
    rows = sorted(set(tuple(int(v) for v in r) for r in H.tolist()))
    m = len(rows)
    P = []
    for x in range(npts):
        mask = 0
        for i, r in enumerate(rows):
            if r[x] == 1:
                mask |= 1 << i
        P.append(mask)
    L = _ldim_factory(sorted(set(P)), m)

    def predict_at(V, x):
        return 1 if L(V & P[x]) >= L(V & ~P[x]) else -1

    V = (1 << m) - 1
    frozen = None          # list h once non-realizable
    preds = []
    for x, y in zip(xs, ys):
        if frozen is None:
            yhat = predict_at(V, x)
            preds.append(yhat)
            Vn = V & P[x] if y == 1 else V & ~P[x]
            if Vn == 0:
                frozen = [predict_at(V, z) for z in range(npts)]
                frozen[x] = y
            else:
                V = Vn
        else:
            preds.append(frozen[x])
            frozen[x] = y
    h = frozen if frozen is not None else [predict_at(V, z) for z in range(npts)]
    mistakes = sum(1 for a, b in zip(preds, ys) if a != b)
    return np.array(list(h) + preds + [mistakes], dtype=np.int64)
