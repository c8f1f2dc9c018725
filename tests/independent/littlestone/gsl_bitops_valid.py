"""globally_stable_learner -- VALID VARIANT (same law, computed differently).

What it is: Algorithm G (paper 003, l.473) with the Monte-Carlo distributions D~_k (l.415):
k ~ uniform{0..d} (rng.integers(0, d+1)); S ~ D~_k drawn depth first (S_0 ~ D~_{k-1},
S_1 ~ D~_{k-1}, T_0, T_1 in each round; retry while f_0 = f_1; tournament point x = the
smallest index where f_0, f_1 differ (C4), then y = +-1 with probability 1/2 each (drawn as
rng.random() < 0.5), keep S_b o T_b o (x, y) with f_b(x) != y); then T (n examples);
output SOA(S o T) as an int8 truth table; 'Fail' (all zeros) once more than
N = floor(c 4^(d+1) n) examples would be drawn inside D~_k, or when the input runs out.
Differences from a textbook implementation:
  * the recursion is explicit and the SOA is never run example by example: SOA(S o T) is
    computed in closed form on bitsets -- the version space after a realizable prefix is the
    AND of the examples' masks, the predictor at z is +1 iff Ldim(V & P[z]) >= Ldim(V & ~P[z])
    (ties +1, C2), and after the first non-realizable example the predictor of the last
    non-empty version space is overwritten by the later examples (later ones win; Def. 8);
  * samples are kept as lists of (x, y) pairs; Ldim memoised per call on bitmasks.
TRUTH: same output law as Algorithm G (the SOA closed form is the spec's own statement of
Definition 8; rng draws are used only for k and the tournament labels).
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
