"""Algorithm G (seed 003 Section 4, Theorem 10; the globally-stable learner) by exact enumeration of its
law, then one draw.

G: level k uniform in {0..d}; S ~ D~_k(n, N) read depth first from the input (S_0 ~ D~_{k-1},
S_1 ~ D~_{k-1}, T_0, T_1 in every round; a round with f_0 = SOA(S_0 o T_0) equal to f_1 = SOA(S_1 o T_1)
is redrawn whole; else x = the smallest index where f_0 and f_1 differ, then y uniform in {+-1}, and the
sample whose predictor errs on (x, y) is kept with (x, y) appended); Fail once more than N examples have
been drawn inside D~_k (global count) or when a read passes the end of the input; then T = the next n
examples and the output SOA(S o T) (SOA with ties to +1, Ldim(empty) = -1, extended to non-realizable
sequences by Definition 8: the predictor of the longest realizable prefix, overwritten point by point by
the later examples). Fail is the all-zero row. n = ceil(2^(d+2)/alpha), N = floor(c 4^(d+1) n).

Given the input, the only randomness of G is the level and the tournament labels y, and the reading
order is a deterministic function of them. This implementation walks every branch (level x the labels
met along the way, rejected rounds followed in place), collects the output of each leaf with its
probability (1/(d+1)) 2^-(labels drawn), and returns one draw from that finite law (rng.choice); when a
level has more than 512 leaves it simulates that level with rng coins instead. The law of each input is
memoised (bounded dict) because it is a deterministic function of the input. Per call only.

TRUTH (valid-variant): the same output law as Algorithm G with the spec's conventions (the sampler
differs: the law is computed, not simulated), so every Theorem 10 / Lemma / Fact A1 statement holds as
for the spec's G. No privacy claim for this spec.
"""
import math

import numpy as np

_CACHE = {}


class _Fail(Exception):
    pass


class Klass:
    def __init__(self, H):
        H = np.asarray(H, dtype=np.int64)
        self.H = H
        self.nX = H.shape[1]
        self.full = (1 << H.shape[0]) - 1
        self.col = [sum(1 << i for i in range(H.shape[0]) if H[i, x] == 1) for x in range(self.nX)]
        self._ld = {0: -1}
        self._pred = {}

    def ldim(self, V):
        if V in self._ld:
            return self._ld[V]
        if V & (V - 1) == 0:
            self._ld[V] = 0
            return 0
        best = 0
        for x in range(self.nX):
            a, b = V & self.col[x], V & ~self.col[x]
            if a and b:
                la = self.ldim(a)
                if la + 1 <= best:
                    continue
                best = max(best, 1 + min(la, self.ldim(b)))
        self._ld[V] = best
        return best

    def predictor(self, V):
        p = self._pred.get(V)
        if p is None:
            p = tuple(1 if self.ldim(V & self.col[x]) >= self.ldim(V & ~self.col[x]) else -1
                      for x in range(self.nX))
            self._pred[V] = p
        return p

    def soa(self, seq):
        V = self.full
        t0 = len(seq)
        for t, (x, y) in enumerate(seq):
            nV = V & self.col[x] if y == 1 else V & ~self.col[x]
            if nV == 0:
                t0 = t
                break
            V = nV
        pred = list(self.predictor(V))
        for x, y in seq[t0:]:
            pred[x] = y
        return tuple(pred)


def _enum_D(K, xs, ys, k, pos, drawn, n, N, cap):
    """leaves (prob, S or None for Fail, pos, drawn) of D~_k started at (pos, drawn)."""
    if k == 0:
        return [(1.0, (), pos, drawn)]
    out, frontier = [], [(1.0, pos, drawn)]
    while frontier:
        p, ps, dr = frontier.pop()
        for p0, S0, ps0, dr0 in _enum_D(K, xs, ys, k - 1, ps, dr, n, N, cap):
            if S0 is None:
                out.append((p * p0, None, ps0, dr0))
                continue
            for p1, S1, ps1, dr1 in _enum_D(K, xs, ys, k - 1, ps0, dr0, n, N, cap):
                q = p * p0 * p1
                if S1 is None:
                    out.append((q, None, ps1, dr1))
                    continue
                if dr1 + 2 * n > N or ps1 + 2 * n > len(xs):
                    out.append((q, None, ps1, dr1))
                    continue
                T0 = tuple(zip(xs[ps1:ps1 + n], ys[ps1:ps1 + n]))
                T1 = tuple(zip(xs[ps1 + n:ps1 + 2 * n], ys[ps1 + n:ps1 + 2 * n]))
                f0, f1 = K.soa(S0 + T0), K.soa(S1 + T1)
                np_, nd = ps1 + 2 * n, dr1 + 2 * n
                if f0 == f1:
                    frontier.append((q, np_, nd))
                else:
                    x = next(i for i in range(K.nX) if f0[i] != f1[i])
                    for y in (1, -1):
                        S = (S0 + T0 if f0[x] != y else S1 + T1) + ((x, y),)
                        out.append((q / 2, S, np_, nd))
            if len(out) + len(frontier) > cap:
                raise OverflowError
    return out


def _sim_D(K, xs, ys, k, st, n, N, rng):
    if k == 0:
        return ()
    while True:
        S0 = _sim_D(K, xs, ys, k - 1, st, n, N, rng)
        S1 = _sim_D(K, xs, ys, k - 1, st, n, N, rng)
        if st[1] + 2 * n > N or st[0] + 2 * n > len(xs):
            raise _Fail
        ps = st[0]
        T0 = tuple(zip(xs[ps:ps + n], ys[ps:ps + n]))
        T1 = tuple(zip(xs[ps + n:ps + 2 * n], ys[ps + n:ps + 2 * n]))
        st[0] += 2 * n
        st[1] += 2 * n
        f0, f1 = K.soa(S0 + T0), K.soa(S1 + T1)
        if f0 != f1:
            x = next(i for i in range(K.nX) if f0[i] != f1[i])
            y = 1 if rng.random() < 0.5 else -1
            return (S0 + T0 if f0[x] != y else S1 + T1) + ((x, y),)


def _finish(K, xs, ys, S, pos, n):
    if S is None or pos + n > len(xs):
        return None
    T = tuple(zip(xs[pos:pos + n], ys[pos:pos + n]))
    return K.soa(S + T)


def g_law(K, xs, ys, d, n, N, rng=None):
    """dict output -> probability (None = Fail); levels too large to enumerate are simulated (needs rng)."""
    law = {}
    for k in range(d + 1):
        try:
            leaves = _enum_D(K, xs, ys, k, 0, 0, n, N, 512)
        except OverflowError:
            if rng is None:
                raise
            st = [0, 0]
            try:
                S = _sim_D(K, xs, ys, k, st, n, N, rng)
            except _Fail:
                S = None
            leaves = [(1.0, S, st[0], st[1])]
        for p, S, pos, _ in leaves:
            h = _finish(K, xs, ys, S, pos, n)
            law[h] = law.get(h, 0.0) + p / (d + 1)
    return law


def params(d, alpha, c):
    n = math.ceil(2 ** (d + 2) / alpha)
    return n, math.floor(c * 4 ** (d + 1) * n)


def law_cached(H, xs, ys, d, n, N):
    key = (H.shape, H.tobytes(), xs.tobytes(), ys.tobytes(), d, n, N)
    v = _CACHE.get(key)
    if v is None:
        K = Klass(H)
        try:
            v = g_law(K, xs.tolist(), ys.tolist(), d, n, N)
        except OverflowError:
            return K, None
        if len(_CACHE) > 4096:
            _CACHE.clear()
        _CACHE[key] = v
    return None, v


def draw(law, nX, rng):
    outs = list(law.keys())
    pr = np.array([law[o] for o in outs])
    i = int(rng.choice(len(outs), p=pr / pr.sum()))
    o = outs[i]
    return np.zeros(nX, dtype=np.int8) if o is None else np.array(o, dtype=np.int8)


def g(data, *, rng, d, alpha, c):
    H = np.asarray(data["H"], dtype=np.int8)
    xs = np.asarray(data["x"]).reshape(-1).astype(np.int64)
    ys = np.asarray(data["y"]).reshape(-1).astype(np.int64)
    n, N = params(d, alpha, c)
    K, law = law_cached(H, xs, ys, d, n, N)
    if law is None:                     # too many leaves: enumerate what fits, simulate the rest
        law = g_law(K, xs.tolist(), ys.tolist(), d, n, N, rng)
    return draw(law, H.shape[1], rng)
