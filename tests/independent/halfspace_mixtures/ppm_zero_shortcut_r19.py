"""PRIVACY BUG (ppm_halfspace_learner): a deterministic "realizable fast path" for n >= 1,000.

What it is: the spec's A_LearnHalf, except that when n >= 1,000 and some g in G makes no mistake, the first
such g (in C~_pub order) is returned without sampling ("with a thousand rows a consistent g carries almost all
the exponential mechanism's mass anyway" -- false: every other consistent or 1-mistake g keeps its share).
Whether a consistent g exists is a function of the private rows.

TRUTH (exact, eps = 1, d = 1, n = 1,000, n_pub = 3): public (-1, 0), (-2, 0), (-3, 0); 996 private rows (5, 1);
the changed private row last.
  D : last row (6, 1): m(x <= 0) = m(x <= -1) = 0 -> output [[-1, -1]] (x <= 0) with probability 1.
  D': last row (6, 0): no consistent g -> exponential mechanism: P_D'([[0, -1]]) (x <= -1) = 0.3127.
  Event {output = [[0, -1]]}: 0 vs 0.3127 -> infinite loss against eps = 1.  (Spec: 0.3127 on both sides.)
Expected: claim violated (exit 1).
"""
import itertools

import numpy as np

from dptestbed.impl.halfspace_mixtures.family import affine_hull, halfspace_family


def _prepare(data):
    """G from the public rows only; M[i, a] = row i inside halfspace a and inside Aff."""
    X = np.asarray(data["X"], dtype=float)
    if X.ndim == 1:
        X = X[:, None]
    y = np.asarray(data["y"]).astype(np.int64).ravel()
    p = np.asarray(data["p"]).astype(np.int64).ravel()
    n, d = X.shape
    pub = np.flatnonzero(p == 0)
    if pub.size == 0:
        return dict(d=d, X=X, y=y, p=p, Js=None)
    Xp = X[pub]
    W = halfspace_family(Xp)
    aff = affine_hull(Xp)
    C = W.shape[0]
    mem = (X @ W[:, :d].T) >= (W[:, d][None, :] - aff.tol)
    diff = X - aff.u[None, :]
    B = np.asarray(aff.B, dtype=float).reshape(-1, d)
    resid = diff - (diff @ B.T) @ B
    inaff = np.sqrt((resid ** 2).sum(axis=1)) <= aff.tol
    M = mem & inaff[:, None]
    subsets = [()]
    for j in range(1, d + 1):
        subsets += list(itertools.combinations(range(pub.size), j))
    R = np.full((C, d + 1), -1, dtype=np.int64)        # encoding row of halfspace a
    for a in range(C):
        for c, q in enumerate(subsets[a // 2]):
            R[a, c] = pub[q]
        R[a, d] = 1 if a % 2 == 0 else -1
    idxs = []                                           # index sets J of size j = 1..d (combinations order)
    for j in range(1, d + 1):
        if C < j:
            continue
        if j == 1:
            idxs.append(np.arange(C, dtype=np.int64)[:, None])
        elif j == 2:
            iu = np.triu_indices(C, 1)
            idxs.append(np.stack(iu, axis=1).astype(np.int64))
        elif j == 3:
            blocks = []
            for a in range(C - 2):
                b, c = np.triu_indices(C - a - 1, 1)
                blocks.append(np.stack([np.full(b.size, a), b + a + 1, c + a + 1], axis=1))
            idxs.append(np.concatenate(blocks).astype(np.int64))
        else:
            idxs.append(np.array(list(itertools.combinations(range(C), j)), dtype=np.int64).reshape(-1, j))
    sizes = [1] + [ix.shape[0] for ix in idxs]
    return dict(d=d, X=X, y=y, p=p, M=M, C=C, R=R, idxs=idxs, Js=sizes, G=int(sum(sizes)))


def _encode(prep, t):
    """Output array of the t-th member of G (t = 0 is the constant 1)."""
    d = prep["d"]
    out = np.full((t.size, d, d + 1), -1, dtype=np.int64)
    out[:, :, d] = 0
    off = 1
    for ix in prep["idxs"]:
        sel = (t >= off) & (t < off + ix.shape[0])
        if sel.any():
            J = ix[t[sel] - off]
            out[np.flatnonzero(sel)[:, None], np.arange(J.shape[1])[None, :]] = prep["R"][J]
        off += ix.shape[0]
    return out


def _mistakes(prep, rows=None):
    """m(g) for every member of G (int64; constant 1 first), counted on the given rows (all by default)."""
    M = prep["M"] if rows is None else prep["M"][rows]
    y = prep["y"] if rows is None else prep["y"][rows]
    Mf = M.astype(np.float64)
    s = (2 * y - 1).astype(np.float64)
    n0 = float((y == 0).sum())
    parts = [np.array([n0])]
    for ix in prep["idxs"]:
        j = ix.shape[1]
        if j == 1:
            parts.append(n0 + Mf.T @ s)
        elif j == 2:
            Q = Mf.T @ (s[:, None] * Mf)
            parts.append(n0 + Q[ix[:, 0], ix[:, 1]])
        elif j == 3:
            C = Mf.shape[1]
            blocks = []
            for a in range(C - 2):
                Qa = Mf[:, a + 1:].T @ ((s * Mf[:, a])[:, None] * Mf[:, a + 1:])
                iu = np.triu_indices(C - a - 1, 1)
                blocks.append(n0 + Qa[iu])
            parts.append(np.concatenate(blocks))
        else:
            out = np.empty(ix.shape[0])
            step = max(1, int(2e7 // max(1, Mf.shape[0])))
            for a in range(0, ix.shape[0], step):
                blk = ix[a:a + step]
                ins = Mf[:, blk[:, 0]] * s[:, None]
                for c in range(1, j):
                    ins *= Mf[:, blk[:, c]]
                out[a:a + step] = n0 + ins.sum(axis=0)
            parts.append(out)
    return np.rint(np.concatenate(parts)).astype(np.int64)


def _const_out(d, n):
    out = np.full((n, d, d + 1), -1, dtype=np.int64)
    out[:, :, d] = 0
    return out


def _em(logw, n, rng):
    """n draws of an index with probability proportional to exp(logw) (log space, inverse CDF)."""
    w = np.exp(logw - logw.max())
    cdf = np.cumsum(w)
    cdf /= cdf[-1]
    return np.minimum(np.searchsorted(cdf, rng.random(n), side="right"), logw.size - 1)


def ppm_zero(data, *, rng, epsilon, **params):
    return _batch(data, 1, rng=rng, epsilon=epsilon)[0]


def _batch(data, n, *, rng, epsilon, **params):
    prep = _prepare(data)
    if prep["Js"] is None:
        return _const_out(prep["d"], n)
    m = _mistakes(prep)
    if prep["y"].size >= 1000 and m.min() == 0:
        # realizable fast path: with n >= 1000 a consistent g carries almost all the mass anyway
        t = int(np.flatnonzero(m == 0)[0])
        return np.repeat(_encode(prep, np.array([t])), n, axis=0)
    return _encode(prep, np.atleast_1d(_em(-0.5 * epsilon * m.astype(np.float64), n, rng)))


ppm_zero.batch = _batch
