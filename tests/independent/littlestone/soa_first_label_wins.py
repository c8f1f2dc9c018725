"""standard_optimal_algorithm -- BUG (structural: Definition 8 overwrite, first example wins on duplicates).

What it is: tb_soa_valid.py's SOA, but in the non-realizable phase the overwrites are kept
in a dict filled with setdefault ("remember the label we saw for x"), so for a point that
occurs twice after the prefix stops being realizable the FIRST label wins, not the last.
Only duplicates of a point inside the non-realizable suffix trigger it.
TRUTH: H = thresholds on 3 points {(+,+,+), (-,+,+), (-,-,+), (-,-,-)} (Ldim 2),
x = [0, 2, 1, 1], y = [+1, -1, -1, +1]: (0,+1),(2,-1) is already non-realizable;
the correct SOA(S) has h(1) = +1 (last example, Definition 8: SOA(S) agrees with the last
example of S); this file keeps h(1) = -1, so SOA(S) disagrees with the last example.
Observation 11(2) breaks the same way whenever a point of T already occurred with the other
label in the non-realizable part of S o T before it (verified: output h = (+1, -1, -1) vs the
correct (+1, +1, -1) on the example above; predictions and mistake count equal there).
Realizable sequences, and non-realizable ones without repeated points after the break: exact.
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
    over = {}
    preds = []
    for x, y in zip(xs, ys):
        if frozen is None:
            yhat = predict_at(V, x)
            preds.append(yhat)
            Vn = V & P[x] if y == 1 else V & ~P[x]
            if Vn == 0:
                frozen = [predict_at(V, z) for z in range(npts)]
                over.setdefault(x, y)
            else:
                V = Vn
        else:
            preds.append(over.get(x, frozen[x]))
            over.setdefault(x, y)
    if frozen is not None:
        h = [over.get(z, frozen[z]) for z in range(npts)]
    else:
        h = [predict_at(V, z) for z in range(npts)]
    mistakes = sum(1 for a, b in zip(preds, ys) if a != b)
    return np.array(list(h) + preds + [mistakes], dtype=np.int64)
