"""globally_stable_learner -- VALID BY THE PAPER, other convention (random tournament point).

What it is: aux/tb_gsl_valid_bitops.py with one change: the tournament point of step (iv)
is drawn uniformly from {x : f_0(x) != f_1(x)} (rng.integers) instead of the smallest such
index (the spec's convention C4).  The paper (003, l.415 and l.317) says "pick
x in {x : f_0(x) != f_1(x)}" -- any choice; the proofs (Obs. 11, Lemmas 12-14, Theorem 10)
only use that f_0(x) != f_1(x) and that y is a fair coin drawn after x.
TRUTH: Theorem 10 and every lemma hold as for C4; the output law differs from the reference's
only when f_0 and f_1 differ on two or more points.
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
            diff = [z for z in range(npts) if f0[z] != f1[z]]
            x = diff[int(rng.integers(0, len(diff)))]
            y = 1 if rng.random() < 0.5 else -1
            if f0[x] != y:
                return S0 + T0 + [(x, y)]
            return S1 + T1 + [(x, y)]

    k = int(rng.integers(0, d + 1))
    try:
        S = sample(k)
        T = draw(n, budgeted=False)
    except _Fail:
        return np.zeros(npts, dtype=np.int8)
    return np.array(soa(S + T), dtype=np.int8)
