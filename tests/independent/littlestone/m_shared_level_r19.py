"""DIFFERS, PRIVACY HOLDS (private_littlestone_learner): one G level per call of M, shared by the k batches.

What it is: M with G's exact per-batch law, except that the level j ~ U{0..d} of Algorithm G is drawn once per
call of M and used by all k runs of G ("the level is a hyper-parameter of the call").  Given j, each h_i is a
function of batch i and of its own tournament coins only.

TRUTH: privacy holds -- the shared level is data-independent randomness; conditioned on it the k batches'
outputs are independent and one changed example moves one h_i, so Hist, pruning and GenericLearner keep the
spec's (eps/2, delta) bound for each j, and a mixture over a data-independent j of (eps, delta)-DP mechanisms
is (eps, delta)-DP.  The law differs: on the stress case batch1_first_example_point_change (every example
(0, +1); each G returns t_1 at level 0 and Fail at level 1) the spec outputs the default [-1, -1] with
probability 4.5e-5, this file with probability about 1/2 (all k batches Fail together when j = 1).
Theorem 17's accuracy fails (the k independent runs of G are what its Chernoff step needs): H = thresholds on
X = {0, 1} ([[+1,+1],[-1,+1],[-1,-1]], Ldim 1), D uniform on {(0,+1), (1,+1)} (target t_1 = [+1,+1]),
k = k_required = 3272, n' = 2200, other parameters at their defaults (n = 8,509,400): every G returns t_1 at
level 0 and Fail at level 1, so this file outputs the default [-1,-1] (loss_D = 1 > alpha = 0.4) with
probability 0.502 (20,000 runs; 1/2 exactly up to noise), the spec's M with probability 0 (20,000 of 20,000
runs output t_1): Pr[loss_D > alpha] = 0.50 > beta = 0.1.
Expected: differs from the spec (exit 3) or claim violated by a theorem check; never by the privacy audit.
"""
import math
import sys

import numpy as np

sys.setrecursionlimit(100000)

FAIL = b"FAIL"


class SOA:
    """The SOA with Definition 8 as a finite automaton over states (version space or overwritten table)."""

    def __init__(self, H):
        H = np.unique(np.asarray(H, dtype=np.int64).reshape(np.shape(H)[0], -1), axis=0)
        self.H = H
        self.nh, self.nx = H.shape
        self.pos = [0] * self.nx
        for x in range(self.nx):
            m = 0
            for r in range(self.nh):
                if H[r, x] == 1:
                    m |= 1 << r
            self.pos[x] = m
        self.full = (1 << self.nh) - 1
        self.ld = {0: -1}
        self.states = []          # id -> ('V', mask) or ('T', bytes)
        self.index = {}
        self.preds = []           # id -> int8 array
        self.trans = {}
        self.init = self._state(("V", self.full))

    def ldim(self, V):
        r = self.ld.get(V)
        if r is not None:
            return r
        if V & (V - 1) == 0:
            self.ld[V] = 0
            return 0
        best = 0
        for x in range(self.nx):
            a = V & self.pos[x]
            b = V & ~self.pos[x]
            if a and b:
                v = 1 + min(self.ldim(a), self.ldim(b))
                if v > best:
                    best = v
        self.ld[V] = best
        return best

    def _state(self, key):
        s = self.index.get(key)
        if s is not None:
            return s
        s = len(self.states)
        self.states.append(key)
        self.index[key] = s
        if key[0] == "V":
            V = key[1]
            pr = np.empty(self.nx, dtype=np.int8)
            for x in range(self.nx):
                a = V & self.pos[x]
                b = V & ~self.pos[x]
                pr[x] = 1 if self.ldim(a) >= self.ldim(b) else -1
        else:
            pr = np.frombuffer(key[1], dtype=np.int8).copy()
        self.preds.append(pr)
        return s

    def step(self, s, x, y):
        k = (s, x, y)
        t = self.trans.get(k)
        if t is not None:
            return t
        key = self.states[s]
        if key[0] == "V":
            V2 = key[1] & (self.pos[x] if y == 1 else ~self.pos[x])
            if V2:
                t = self._state(("V", V2))
            else:
                pr = self.preds[s].copy()
                pr[x] = y
                t = self._state(("T", pr.tobytes()))
        else:
            pr = self.preds[s].copy()
            pr[x] = y
            t = self._state(("T", pr.tobytes()))
        self.trans[k] = t
        return t


def g_law(soa, bx, by, d, n, N):
    """Exact law of Algorithm G on one batch: dict truth-table bytes (or FAIL) -> probability."""
    bx = [int(v) for v in bx]
    by = [int(v) for v in by]
    seg = {}

    def run(q, a):
        key = (q, a)
        r = seg.get(key)
        if r is None:
            r = q
            for t in range(a, a + n):
                r = soa.step(r, bx[t], by[t])
            seg[key] = r
        return r

    memo = {}

    def F(k, p):
        # law of D~_k started at read position p: dict (end position, state) or 'F' -> prob
        key = (k, p)
        if key in memo:
            return memo[key]
        if k == 0:
            res = {(p, soa.init): 1.0}
            memo[key] = res
            return res
        res = {}
        for o0, w0 in F(k - 1, p).items():
            if o0 == "F":
                res["F"] = res.get("F", 0.0) + w0
                continue
            p1, s0 = o0
            for o1, w1 in F(k - 1, p1).items():
                w = w0 * w1
                if o1 == "F":
                    res["F"] = res.get("F", 0.0) + w
                    continue
                p2, s1 = o1
                p3 = p2 + 2 * n
                if p3 > N:
                    res["F"] = res.get("F", 0.0) + w
                    continue
                q0 = run(s0, p2)
                q1 = run(s1, p2 + n)
                f0 = soa.preds[q0]
                f1 = soa.preds[q1]
                dif = np.flatnonzero(f0 != f1)
                if dif.size == 0:
                    for o2, w2 in F(k, p3).items():
                        res[o2] = res.get(o2, 0.0) + w * w2
                    continue
                x = int(dif[0])
                for yv in (1, -1):
                    if f0[x] != yv:
                        o = (p3, soa.step(q0, x, yv))
                    else:
                        o = (p3, soa.step(q1, x, yv))
                    res[o] = res.get(o, 0.0) + 0.5 * w
        memo[key] = res
        return res

    laws = []
    for j in range(d + 1):
        law = {}
        for o, w in F(j, 0).items():
            if o == "F":
                law[FAIL] = law.get(FAIL, 0.0) + w
                continue
            p, s = o
            if p + n > len(bx):
                law[FAIL] = law.get(FAIL, 0.0) + w
                continue
            q = run(s, p)
            key = soa.preds[q].tobytes()
            law[key] = law.get(key, 0.0) + w
        laws.append(law)
    return laws


_CACHE = {}


def _dense(data, n_total):
    if "fill_x" in data:
        fx = np.atleast_1d(np.asarray(data["fill_x"], dtype=np.int64))
        fy = np.atleast_1d(np.asarray(data["fill_y"], dtype=np.int64))
        P = fx.size
        j = np.arange(n_total)
        x = fx[j % P].copy()
        y = fy[j % P].copy()
        idx = np.rint(np.atleast_1d(np.asarray(data["idx"], dtype=float))).astype(np.int64)
        if idx.size:
            x[idx] = np.atleast_1d(np.asarray(data["x"], dtype=np.int64))
            y[idx] = np.atleast_1d(np.asarray(data["y"], dtype=np.int64))
        return x, y
    return np.asarray(data["x"], dtype=np.int64).ravel(), np.asarray(data["y"], dtype=np.int64).ravel()


def _setup(data, epsilon, delta, alpha, d, eta, c, k, n_prime):
    n_aux = math.ceil(2 ** (d + 3) / alpha)
    N = math.floor(c * 4 ** (d + 1) * n_aux)
    m = N + n_aux
    H = np.asarray(data["H"], dtype=np.int64)
    x, y = _dense(data, k * m + n_prime)
    hkey = (H.tobytes(), H.shape)
    soa = _CACHE.get(("soa", hkey))
    if soa is None:
        soa = SOA(H)
        _CACHE[("soa", hkey)] = soa
    laws = []
    for i in range(k):
        bx = x[i * m:(i + 1) * m]
        by = y[i * m:(i + 1) * m]
        ck = ("law", hkey, d, n_aux, N, bx.tobytes(), by.tobytes())
        law = _CACHE.get(ck)
        if law is None:
            law = g_law(soa, bx, by, d, n_aux, N)
            if len(_CACHE) > 20000:
                _CACHE.clear()
                _CACHE[("soa", hkey)] = soa
            _CACHE[ck] = law
        laws.append(law)
    items = sorted({key for lv in laws for law in lv for key in law})          # canonical order (bytes)
    item_index = {key: t for t, key in enumerate(items)}
    nx = H.shape[1]
    tables = np.array([np.frombuffer(key, dtype=np.int8) if key != FAIL else np.zeros(nx, np.int8)
                       for key in items], dtype=np.int8).reshape(len(items), nx)
    isfail = np.array([key == FAIL for key in items], dtype=bool)
    sx = x[k * m:k * m + n_prime]
    sy = y[k * m:k * m + n_prime]
    err = np.array([(tables[t][sx] != sy).sum() for t in range(len(items))], dtype=np.float64)
    # per-batch categorical laws over item indices
    P = np.zeros((d + 1, k, len(items)))
    for i, lv in enumerate(laws):
        for j, law in enumerate(lv):
            for key, w in law.items():
                P[j, i, item_index[key]] += w
    P /= P.sum(axis=2, keepdims=True)
    return dict(P=P, tables=tables, isfail=isfail, err=err, nx=nx)


def _sample(st, n, rng, epsilon, delta, eta, k):
    Pall = st["P"]
    U = Pall.shape[2]
    lev = rng.integers(0, Pall.shape[0], size=n)      # one level per call of M, shared by its k runs of G
    counts = np.zeros((n, U), dtype=np.int64)
    for j in range(Pall.shape[0]):
        sel = np.flatnonzero(lev == j)
        if sel.size == 0:
            continue
        P = Pall[j]
        rows, ginv = np.unique(P, axis=0, return_inverse=True)
        ginv = np.asarray(ginv).ravel()
        for gi in range(rows.shape[0]):
            size = int((ginv == gi).sum())
            pv = np.clip(rows[gi], 0.0, None)
            counts[sel] += rng.multinomial(size, pv / pv.sum(), size=sel.size)
    eps_h = epsilon / 2.0
    b = 2.0 / eps_h
    tau = 1.0 + (2.0 / eps_h) * math.log(1.0 / delta)
    noisy = counts + rng.laplace(0.0, b, size=(n, U))
    released = (counts >= 1) & (noisy >= tau)
    a = np.minimum(1.0, noisy / k)
    keep = released & (a >= 0.75 * eta) & ~st["isfail"][None, :]
    score = -(epsilon / 2.0) * st["err"] / 2.0
    g = rng.gumbel(size=(n, U)) + score[None, :]
    g[~keep] = -np.inf
    pick = np.argmax(g, axis=1)
    out = st["tables"][pick].copy()
    empty = ~keep.any(axis=1)
    out[empty] = -1
    return out.astype(np.int8)


def M_shared(data, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime, **params):
    st = _setup(data, epsilon, delta, alpha, d, eta, c, k, n_prime)
    return _sample(st, 1, rng, epsilon, delta, eta, k)[0]


def _batch(data, n, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime, **params):
    st = _setup(data, epsilon, delta, alpha, d, eta, c, k, n_prime)
    return _sample(st, n, rng, epsilon, delta, eta, k)


M_shared.batch = _batch
