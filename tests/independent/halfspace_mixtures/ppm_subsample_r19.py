"""PRIVACY BUG (ppm_halfspace_learner): above 8,192 rows the empirical error is estimated on a subsample.

What it is: the spec's A_LearnHalf for n <= 8,192.  For larger n, each run scores G on a uniform random
subsample of 8,192 rows (without replacement, from rng) and plugs the unbiased estimate
err^_sub = m_sub/8192 into the spec's exponent exp(-eps n err^/2) "score sensitivity 1/n".  But err^_sub
moves by 1/8192, not 1/n, when one row changes: each sampled mistake weighs n/8192 times the spec's.
Subsampling amplification (rate q = 8192/n) gives back part of it, not all.

TRUTH (exact, by summing over the hypergeometric inclusion of the public rows and of the changed row; checked
with 3,000 Rao-Blackwellised subsamples a side: 0.0106 +- 0.0012 and 0.00319 +- 0.00016), eps = 1, d = 1:
  n = 65,536 rows: 16 public rows (0, 0) (n_pub = 16; Aff = the point {0}, so G = constant 1 and 34
  halfspace hypotheses, each predicting 0 at x = 0 only), the changed private row at x = 0, and 65,519
  private rows (5, 1) (outside Aff: every g predicts 1 there, so they are neutral).
  D : changed row (0, 1);  D': changed row (0, 0).   q = 1/8, weight exp(-4 m_sub) per subsample.
  P_D(constant 1) = 0.01316,  P_D'(constant 1) = 0.003089:  loss ln(0.01316/0.003089) = 1.449 > eps = 1.
  (The spec's exact loss on this pair is 0.9999.)  At n = 131,072 the same construction gives 2.27 (n_pub 64).
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

SUB = 8192


def _draw(prep, n, rng, epsilon):
    T = prep["y"].size
    if T <= SUB:
        m = _mistakes(prep).astype(np.float64)
        return _em(-0.5 * epsilon * m, n, rng)
    out = np.empty(n, dtype=np.int64)
    for r in range(n):
        rows = rng.choice(T, size=SUB, replace=False)
        err_hat = _mistakes(prep, rows) / SUB             # unbiased estimate of err^(g; S')
        out[r] = _em(-0.5 * epsilon * T * err_hat, 1, rng)[0]   # score sensitivity 1/n, n = T
    return out


def ppm_subsample(data, *, rng, epsilon, **params):
    return _batch(data, 1, rng=rng, epsilon=epsilon)[0]


def _batch(data, n, *, rng, epsilon, **params):
    prep = _prepare(data)
    if prep["Js"] is None:
        return _const_out(prep["d"], n)
    return _encode(prep, np.atleast_1d(_draw(prep, n, rng, epsilon)))


ppm_subsample.batch = _batch
