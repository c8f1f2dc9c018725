"""VALID (ppm_halfspace_learner): A_LearnHalf with a two-stage sampler of the same law.

What it is: G built from the public rows only (halfspace_family / affine_hull of the public points),
m(g) counted with one matrix product, and the exponential mechanism sampled in two stages: first the
mistake level t with probability N_t exp(-eps t/2) / Z (N_t = number of index sets J with m(J) = t),
then an index set uniformly among the N_t of that level.  Pr[J] = exp(-eps m(J)/2)/Z exactly, the
spec's law; only the sampler differs (level-then-uniform instead of one categorical draw).
TRUTH: law equal to the spec's; privacy loss = the spec's (<= epsilon, e.g. 0.864 on N1 at eps = 1).
Expected: pass (exit 0).
"""
import itertools

import numpy as np

from dptestbed.impl.halfspace_mixtures.family import affine_hull, halfspace_family


def _prepare(data):
    X = np.asarray(data["X"], dtype=float)
    if X.ndim == 1:
        X = X[:, None]
    y = np.asarray(data["y"]).astype(np.int64).ravel()
    p = np.asarray(data["p"]).astype(np.int64).ravel()
    n, d = X.shape
    pub = np.flatnonzero(p == 0)
    if pub.size == 0:
        return d, None, None, None
    Xp = X[pub]
    W = halfspace_family(Xp)
    aff = affine_hull(Xp)
    C = W.shape[0]
    mem = (X @ W[:, :d].T) >= (W[:, d][None, :] - aff.tol)          # (n, C)
    diff = X - aff.u[None, :]
    B = np.asarray(aff.B, dtype=float).reshape(-1, d)
    resid = diff - (diff @ B.T) @ B
    inaff = np.sqrt((resid ** 2).sum(axis=1)) <= aff.tol
    M = (mem & inaff[:, None]).astype(np.float64)                   # inside-polytope indicators
    s = (2 * y - 1).astype(np.float64)                               # +1 for label 1, -1 for label 0
    n0 = float((y == 0).sum())
    subsets = [()]
    for j in range(1, d + 1):
        subsets += list(itertools.combinations(range(pub.size), j))
    Js = [()]
    ms = [float((y == 0).sum())]                                     # constant 1 errs on the label-0 rows
    for j in range(1, d + 1):
        combos = list(itertools.combinations(range(C), j))
        if not combos:
            continue
        idx = np.array(combos, dtype=np.int64)
        inside = np.ones((idx.shape[0], n), dtype=np.float64)
        for col in range(j):
            inside *= M[:, idx[:, col]].T
        m = n0 + inside @ s
        Js += combos
        ms += list(m)
    ms = np.rint(np.array(ms)).astype(np.int64)
    enc = np.full((len(Js), d, d + 1), -1, dtype=np.int64)
    enc[:, :, d] = 0
    for t, J in enumerate(Js):
        for r, a in enumerate(J):
            sub = subsets[a // 2]
            for c, q in enumerate(sub):
                enc[t, r, c] = pub[q]
            enc[t, r, d] = 1 if a % 2 == 0 else -1
    return d, Js, ms, enc


def _sample(prep, n, rng, epsilon):
    d, Js, ms, enc = prep
    if Js is None:
        out = np.full((n, d, d + 1), -1, dtype=np.int64)
        out[:, :, d] = 0
        return out
    levels, inv, counts = np.unique(ms, return_inverse=True, return_counts=True)
    logw = np.log(counts) - 0.5 * epsilon * (levels - levels.min())
    pw = np.exp(logw - logw.max())
    cdf = np.cumsum(pw / pw.sum())
    cdf[-1] = 1.0
    u = rng.random(n)
    lev = np.minimum(np.searchsorted(cdf, u, side="right"), len(levels) - 1)
    members = [np.flatnonzero(inv == L) for L in range(len(levels))]
    v = rng.random(n)
    pick = np.empty(n, dtype=np.int64)
    for L in range(len(levels)):
        sel = lev == L
        if sel.any():
            k = members[L].size
            pick[sel] = members[L][np.minimum((v[sel] * k).astype(np.int64), k - 1)]
    return enc[pick]


def ppm_valid(data, *, rng, epsilon, **params):
    return _sample(_prepare(data), 1, rng, epsilon)[0]


def _batch(data, n, *, rng, epsilon, **params):
    return _sample(_prepare(data), n, rng, epsilon)


ppm_valid.batch = _batch
