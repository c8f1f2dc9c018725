"""globally_stable_learner -- BUG (step (v) inverted: keeps the side that AGREES with y).

What it is: aux/tb_gsl_valid_bitops.py with step (v) of D~_k written as
"if f_0(x) == y: output S_0 o T_0 o (x, y) else S_1 o T_1 o (x, y)" (a flipped comparison).
The appended tournament example then agrees with the kept side's SOA(S_b o T_b), so it
forces no mistake.
TRUTH: level k = 0 (probability 1/(d+1)) unchanged.  At k >= 1 Observation 11(1) fails:
the SOA run on S o T is not forced to err on the k tournament examples (by construction the
kept f_b predicts y at x), and the law of S ~ D~_k differs (the kept side is the one whose
hypothesis matches the coin, i.e. S_b with b uniform, instead of the side that the coin
contradicts).  The output law of G therefore differs at every level k >= 1.
"""
import math

import numpy as np


class _Fail(Exception):
    pass


def learner(data, *, rng, d=1, alpha=0.1, c=512, **params):
    d = int(d)
    H = np.asarray(data["H"])
    xs = [int(v) for v in np.asarray(data["x"]).ravel()]
    ys = [int(v) for v in np.asarray(data["y"]).ravel()]
    npts = H.shape[1]
    rows = sorted(set(tuple(int(v) for v in r) for r in H.tolist()))
    m = len(rows)
    full = (1 << m) - 1
    P = []
    for z in range(npts):
        mask = 0
        for i, r in enumerate(rows):
            if r[z] == 1:
                mask |= 1 << i
        P.append(mask)
    splitters = sorted(set(P))
    memo = {}

    def L(V):
        if V == 0:
            return -1
        r = memo.get(V)
        if r is not None:
            return r
        cnt = bin(V).count("1")
        if cnt == 1:
            memo[V] = 0
            return 0
        ub = cnt.bit_length() - 1
        best = 0
        for p in splitters:
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

    pred_memo = {}

    def predictor(V):
        h = pred_memo.get(V)
        if h is None:
            h = tuple(1 if L(V & P[z]) >= L(V & ~P[z]) else -1 for z in range(npts))
            pred_memo[V] = h
        return h

    def soa(seq):
        V = full
        for i, (x, y) in enumerate(seq):
            Vn = V & (P[x] if y == 1 else ~P[x] & full)
            if Vn == 0:
                h = list(predictor(V))
                for (x2, y2) in seq[i:]:
                    h[x2] = y2
                return tuple(h)
            V = Vn
        return predictor(V)

    n = int(math.ceil(2 ** (d + 2) / alpha))
    N = int(math.floor(c * 4 ** (d + 1) * n))
    total = len(xs)
    pos = [0]

    def draw(count, budgeted=True):
        if budgeted and pos[0] + count > N:
            raise _Fail
        if pos[0] + count > total:
            raise _Fail
        out = list(zip(xs[pos[0]:pos[0] + count], ys[pos[0]:pos[0] + count]))
        pos[0] += count
        return out

    def sample(k):
        if k == 0:
            return []
        while True:
            S0 = sample(k - 1)
            S1 = sample(k - 1)
            T0 = draw(n)
            T1 = draw(n)
            f0 = soa(S0 + T0)
            f1 = soa(S1 + T1)
            if f0 == f1:
                continue
            x = next(z for z in range(npts) if f0[z] != f1[z])
            y = 1 if rng.random() < 0.5 else -1
            if f0[x] == y:
                return S0 + T0 + [(x, y)]
            return S1 + T1 + [(x, y)]

    k = int(rng.integers(0, d + 1))
    try:
        S = sample(k)
        T = draw(n, budgeted=False)
    except _Fail:
        return np.zeros(npts, dtype=np.int8)
    return np.array(soa(S + T), dtype=np.int8)
