"""Algorithm G (seed 003 Section 4.3): level k uniform in {0..d}; S ~ D~_k (Monte-Carlo tournament
distribution, auxiliary size n = ceil(2^(d+2)/alpha), at most N = floor(c 4^(d+1) n) draws in total,
'Fail' beyond); T ~ D^n; output SOA(S o T) (Definition 8 for non-realizable prefixes).

Draws are read strictly in order from data['x'], data['y'] (depth first: S_0, S_1, T_0, T_1 per round,
then T); reading past the end is Fail. Tournament point: smallest x where f_0 and f_1 differ, then
y uniform in {+-1}. Output: int8 truth table, all zeros for Fail."""
import math

import numpy as np


class Fail(Exception):
    pass


class Klass:
    """The class H (distinct rows) with bitmask Ldim and memoised SOA predictors."""

    def __init__(self, H):
        H = np.asarray(H).astype(np.int8)
        self.H = np.unique(H, axis=0) if H.shape[0] else H
        self.nx = self.H.shape[1]
        rows = self.H.shape[0]
        self.full = (1 << rows) - 1
        self.plus = [sum(1 << r for r in range(rows) if self.H[r, x] == 1) for x in range(self.nx)]
        self.minus = [self.full & ~p for p in self.plus]
        self._ld = {}
        self._pred = {}
        self.soa_cache = {}
        self.small = rows <= 63
        dt = np.uint64 if self.small else object
        self._plus_arr = np.array(self.plus, dtype=dt)
        self._minus_arr = np.array(self.minus, dtype=dt)

    def cons(self, xs, ys):
        """Mask of the rows consistent with each example (numpy arrays in, mask array out)."""
        return np.where(ys == 1, self._plus_arr[xs], self._minus_arr[xs])

    def ldim(self, mask):
        if mask == 0:
            return -1
        if mask & (mask - 1) == 0:
            return 0
        got = self._ld.get(mask)
        if got is not None:
            return got
        best = 0
        for p in self.plus:
            a, b = mask & p, mask & ~p
            if a and b:
                la = self.ldim(a)
                if la + 1 <= best:
                    continue
                best = max(best, 1 + min(la, self.ldim(b)))
        self._ld[mask] = best
        return best

    def predictor(self, mask, tie=1):
        key = (mask, tie)
        got = self._pred.get(key)
        if got is None:
            h = []
            for x in range(self.nx):
                lp, lm = self.ldim(mask & self.plus[x]), self.ldim(mask & self.minus[x])
                h.append(1 if lp > lm else (-1 if lm > lp else tie))
            got = tuple(h)
            self._pred[key] = got
        return got



class Reader:
    """Reads draws in order from positions [start, end) of the sample; a drawn chunk is kept as a
    position range so that the SOA can run over it with numpy (consistency masks per position)."""

    def __init__(self, K, xs, ys, start, end, budget):
        self.K = K
        self.xs, self.ys = xs, ys
        self.pos, self.end = start, end
        self.budget = budget          # max draws of D~_k (None: unlimited)
        self.drawn = 0

    def draw(self, n, counted=True):
        if counted and self.budget is not None and self.drawn + n > self.budget:
            raise Fail
        if self.pos + n > self.end:
            raise Fail
        seg = ("chunk", self.pos, self.pos + n)
        self.pos += n
        if counted:
            self.drawn += n
        return [seg]


def soa_segments(K, segs, xs, ys, tie=1):
    """SOA over a sample given as segments ('chunk', a, b) of the input or ('pt', x, y); memoised in K
    (a Klass object is built per input sample, so the key (segments, tie) determines the result)."""
    key = (tuple(segs), tie)
    got = K.soa_cache.get(key)
    if got is None:
        got = _soa_segments(K, segs, xs, ys, tie)
        if len(K.soa_cache) < 200000:
            K.soa_cache[key] = got
    return got


def _soa_segments(K, segs, xs, ys, tie=1):
    mask = K.full
    for j, seg in enumerate(segs):
        if seg[0] == "pt":
            x, y = seg[1], seg[2]
            nxt = mask & (K.plus[x] if y == 1 else K.minus[x])
            if nxt == 0:
                return _overwrite(K, mask, segs, j, 0, xs, ys, tie)
            mask = nxt
            continue
        a, b = seg[1], seg[2]
        if b <= a:
            continue
        cm = K.cons(xs[a:b], ys[a:b])
        acc = np.bitwise_and.accumulate(cm) & np.uint64(mask) if K.small else None
        if K.small:
            zero = np.flatnonzero(acc == 0)
            if zero.size:
                t = int(zero[0])
                prev = mask if t == 0 else int(acc[t - 1])
                return _overwrite(K, prev, segs, j, t, xs, ys, tie)
            mask = int(acc[-1])
        else:
            for t in range(b - a):
                nxt = mask & int(cm[t])
                if nxt == 0:
                    return _overwrite(K, mask, segs, j, t, xs, ys, tie)
                mask = nxt
    return K.predictor(mask, tie)


def _overwrite(K, mask, segs, j, t, xs, ys, tie):
    h = list(K.predictor(mask, tie))
    first = True
    for seg in segs[j:]:
        if seg[0] == "pt":
            h[seg[1]] = seg[2]
            continue
        a = seg[1] + (t if first else 0)
        b = seg[2]
        first = False
        if b > a:
            # later examples win: keep the last occurrence of each x
            xx, yy = xs[a:b][::-1], ys[a:b][::-1]
            u, i = np.unique(xx, return_index=True)
            for x2, y2 in zip(u.tolist(), yy[i].tolist()):
                h[x2] = y2
        first = False
    return tuple(h)


def sample_dk(K, reader, k, n, rng, tie=1):
    if k == 0:
        return []
    xs, ys = reader.xs, reader.ys
    while True:
        s0 = sample_dk(K, reader, k - 1, n, rng, tie)
        s1 = sample_dk(K, reader, k - 1, n, rng, tie)
        t0 = reader.draw(n)
        t1 = reader.draw(n)
        a, b = s0 + t0, s1 + t1
        f0, f1 = soa_segments(K, a, xs, ys, tie), soa_segments(K, b, xs, ys, tie)
        if f0 == f1:
            continue
        x = next(i for i in range(K.nx) if f0[i] != f1[i])
        y = 1 if rng.random() < 0.5 else -1
        return (a if f0[x] != y else b) + [("pt", x, y)]


def run_G(K, xs, ys, start, end, rng, d, n, N, level=None, tie=1):
    """One run of G on positions [start, end); returns a truth table tuple or None for Fail."""
    k = int(rng.integers(0, d + 1)) if level is None else level
    reader = Reader(K, xs, ys, start, end, N)
    try:
        s = sample_dk(K, reader, k, n, rng, tie)
        t = reader.draw(n, counted=False)
    except Fail:
        return None
    return soa_segments(K, s + t, xs, ys, tie)


def params_G(d, alpha, c):
    n = math.ceil(2 ** (d + 2) / alpha)
    N = math.floor(c * 4 ** (d + 1) * n)
    return n, N


def g(data, *, rng, d, alpha, c):
    K = Klass(data["H"])
    xs = np.asarray(data["x"]).reshape(-1).astype(np.int64)
    ys = np.asarray(data["y"]).reshape(-1).astype(np.int64)
    n, N = params_G(d, alpha, c)
    h = run_G(K, xs, ys, 0, xs.size, rng, d, n, N)
    if h is None:
        return np.zeros(K.nx, dtype=np.int8)
    return np.asarray(h, dtype=np.int8)
