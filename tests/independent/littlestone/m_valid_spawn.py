"""Private learner M (Theorem 17 with G = Algorithm G), valid variant.

Batches S_1..S_k by position (m = N + n_aux each), G on each batch reading only its batch, Hist at
(epsilon/2, delta) on the canonical ids of the h_i (Fail has its own id), pruning a_h >= 3 eta/4 and
Fail dropped, GenericLearner at epsilon/2 on S' (Pr proportional to exp(-(epsilon/2) err/2)), constant
-1 if L is empty.  Unusual but the same law: each G run gets its own child generator from rng.spawn;
for d = 1 the law of G on a batch is computed exactly once (it has at most 3 atoms: level 0 with
probability 1/2, level 1 with y = +1 or -1 with probability 1/4 each, Fail folded in) and then sampled,
which is the same distribution as running G; for d >= 2 G is run literally.
"""
import numpy as np

FAIL = None


class _SOA:
    def __init__(self, H):
        self.H = np.asarray(H, dtype=np.int8)
        self.nh, self.nx = self.H.shape
        self.memo = {}
        self.pos = [sum(1 << i for i in range(self.nh) if self.H[i, x] == 1) for x in range(self.nx)]
        self.full = (1 << self.nh) - 1

    def ldim(self, mask):
        if mask == 0:
            return -1
        if mask & (mask - 1) == 0:
            return 0
        r = self.memo.get(mask)
        if r is not None:
            return r
        best = 0
        for x in range(self.nx):
            a = mask & self.pos[x]
            b = mask & ~self.pos[x]
            if a and b:
                v = 1 + min(self.ldim(a), self.ldim(b))
                if v > best:
                    best = v
        self.memo[mask] = best
        return best

    def predictor(self, mask):
        key = ("p", mask)
        r = self.memo.get(key)
        if r is None:
            r = np.array([1 if self.ldim(mask & self.pos[x]) >= self.ldim(mask & ~self.pos[x]) else -1
                          for x in range(self.nx)], dtype=np.int8)
            self.memo[key] = r
        return r

    def run(self, xs, ys):
        mask = self.full
        h = None
        for x, y in zip(xs, ys):
            if h is None:
                nm = mask & (self.pos[x] if y == 1 else ~self.pos[x])
                if nm:
                    mask = nm
                    continue
                h = self.predictor(mask).copy()
            h[x] = y
        return self.predictor(mask).copy() if h is None else h


def _dense(data, n_total):
    x, y = np.asarray(data["x"]), np.asarray(data["y"])
    if "idx" not in data:
        return x.astype(np.int64), y.astype(np.int8)
    fx = np.atleast_1d(np.asarray(data["fill_x"])).astype(np.int64)
    fy = np.atleast_1d(np.asarray(data["fill_y"])).astype(np.int8)
    X = np.resize(fx, n_total)
    Y = np.resize(fy, n_total)
    idx = np.asarray(data["idx"]).astype(np.float64).astype(np.int64)
    X[idx] = x.astype(np.int64)
    Y[idx] = y.astype(np.int8)
    return X, Y


def _G_literal(soa, bx, by, rng, d, n_aux, N):
    """Algorithm G on one batch, reading it in order; returns a truth table or FAIL."""
    state = {"pos": 0, "fail": False}

    def draw(cnt):
        if state["pos"] + cnt > N:
            state["fail"] = True
            return None
        s = state["pos"]
        state["pos"] += cnt
        return list(zip(bx[s:s + cnt].tolist(), by[s:s + cnt].tolist()))

    def Dk(k):
        if k == 0:
            return []
        while True:
            S0 = Dk(k - 1)
            if state["fail"]:
                return None
            S1 = Dk(k - 1)
            if state["fail"]:
                return None
            T0 = draw(n_aux)
            if T0 is None:
                return None
            T1 = draw(n_aux)
            if T1 is None:
                return None
            A, B = S0 + T0, S1 + T1
            f0 = soa.run([a for a, _ in A], [b for _, b in A])
            f1 = soa.run([a for a, _ in B], [b for _, b in B])
            if np.array_equal(f0, f1):
                continue
            xx = int(np.flatnonzero(f0 != f1)[0])
            yy = 1 if rng.random() < 0.5 else -1
            return (A if f0[xx] != yy else B) + [(xx, yy)]

    k = int(rng.integers(0, d + 1))
    S = Dk(k)
    if S is None:
        return FAIL
    s = state["pos"]
    T = list(zip(bx[s:s + n_aux].tolist(), by[s:s + n_aux].tolist()))
    A = S + T
    return soa.run([a for a, _ in A], [b for _, b in A])


def _G_law_d1(soa, bx, by, n_aux, N):
    """Exact law of G on one batch when d = 1: list of (hypothesis or FAIL, probability)."""
    atoms = [(soa.run(bx[:n_aux], by[:n_aux]), 0.5)]
    pos = 0
    while pos + 2 * n_aux <= N:
        t0x, t0y = bx[pos:pos + n_aux], by[pos:pos + n_aux]
        t1x, t1y = bx[pos + n_aux:pos + 2 * n_aux], by[pos + n_aux:pos + 2 * n_aux]
        pos += 2 * n_aux
        f0, f1 = soa.run(t0x, t0y), soa.run(t1x, t1y)
        if np.array_equal(f0, f1):
            continue
        xx = int(np.flatnonzero(f0 != f1)[0])
        for yy in (1, -1):
            sx, sy = (t0x, t0y) if f0[xx] != yy else (t1x, t1y)
            ax = np.concatenate([sx, [xx], bx[pos:pos + n_aux]])
            ay = np.concatenate([sy, [yy], by[pos:pos + n_aux]])
            atoms.append((soa.run(ax, ay), 0.25))
        return atoms
    atoms.append((FAIL, 0.5))
    return atoms


def _m_runs(data, n_runs, rng, epsilon, delta, alpha, beta, d, eta, c, k, n_prime):
    H = np.asarray(data["H"], dtype=np.int8)
    nx = H.shape[1]
    n_aux = int(np.ceil(2 ** (d + 3) / alpha))
    N = int(np.floor(c * 4 ** (d + 1) * n_aux))
    m = N + n_aux
    X, Y = _dense(data, k * m + n_prime)
    soa = _SOA(H)
    ids = {}                 # canonical id: truth-table bytes -> index; FAIL is id 0
    table = [None]

    def cid(h):
        if h is None:
            return 0
        key = h.tobytes()
        if key not in ids:
            ids[key] = len(table)
            table.append(h)
        return ids[key]

    kids = rng.spawn(k)
    draws = np.zeros((n_runs, k), dtype=np.int64)
    for i in range(k):
        bx, by = X[i * m:(i + 1) * m], Y[i * m:(i + 1) * m]
        if d == 1:
            atoms = _G_law_d1(soa, bx, by, n_aux, N)
            aid = np.array([cid(h) for h, _ in atoms])
            ap = np.array([p for _, p in atoms])
            draws[:, i] = aid[kids[i].choice(len(atoms), size=n_runs, p=ap)]
        else:
            for r in range(n_runs):
                draws[r, i] = cid(_G_literal(soa, bx, by, kids[i], d, n_aux, N))
    n_items = len(table)
    counts = np.zeros((n_runs, n_items))
    np.add.at(counts, (np.repeat(np.arange(n_runs), k), draws.ravel()), 1.0)
    # Hist at (epsilon/2, delta): Laplace(2/eps_h) on the non-zero counts, threshold tau
    eps_h = epsilon / 2.0
    b = 2.0 / eps_h
    tau = 1.0 + b * np.log(1.0 / delta)
    noisy = counts + rng.laplace(0.0, b, size=counts.shape)
    released = (counts > 0) & (noisy >= tau)
    a = np.minimum(1.0, noisy / k)
    keep = released & (a >= 0.75 * eta)
    keep[:, 0] = False                                  # drop Fail
    # GenericLearner at epsilon/2 on S'
    sx, sy = X[k * m:k * m + n_prime], Y[k * m:k * m + n_prime]
    err = np.zeros(n_items)
    for j in range(1, n_items):
        err[j] = np.sum(table[j][sx] != sy)
    logits = np.where(keep, -0.5 * (epsilon / 2.0) * err[None, :], -np.inf)
    g = rng.gumbel(size=counts.shape)
    choice = np.argmax(logits + g, axis=1)
    out = np.full((n_runs, nx), -1, dtype=np.int8)
    anyk = keep.any(axis=1)
    tabs = np.stack([np.full(nx, -1, dtype=np.int8)] + table[1:])
    out[anyk] = tabs[choice[anyk]]
    return out


def private_learner(data, *, rng, epsilon, delta, alpha, beta, d, eta, c, k, n_prime):
    return _m_runs(data, 1, rng, epsilon, delta, alpha, beta, d, eta, c, k, n_prime)[0]


def _batch(data, n_runs, /, *, rng, epsilon, delta, alpha, beta, d, eta, c, k, n_prime):
    return _m_runs(data, n_runs, rng, epsilon, delta, alpha, beta, d, eta, c, k, n_prime)


private_learner.batch = _batch
