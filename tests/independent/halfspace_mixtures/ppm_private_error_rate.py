"""A_LearnHalf (seed 001 Algorithm 2) with the score normalised by the number of private examples.

Public rows = status bit p == 0 (never by label). C~_pub and Aff come from the spec-named testbed
functions halfspace_family / affine_hull of the public points (the output encoding indexes their
rows); G = the constant-1 hypothesis plus every set J of 1..d distinct rows, g_J(x) = 0 iff x lies in
every listed halfspace (w.x >= w_0 - tol) and in Aff, else 1; m(g) = mistakes of g on all n rows.
The bug: the author scores g by the empirical error "over the private examples", err = m(g)/n_priv,
while keeping the spec's score sensitivity 1/n, so Step 9 samples g with probability proportional to
exp(-epsilon * err / (2/n)) = exp(-epsilon * n * m(g) / (2 n_priv)). With n_pub = 0 (n_priv = n) this
is the spec's law (and then G = {constant 1} anyway). Per call, with a batch sampler (the law is
computed once and sampled N times).

TRUTH (privacy-bug): the weight per mistake is epsilon n/(2 n_priv) instead of epsilon/2, so the loss
is up to epsilon n / n_priv. At the default point (epsilon = 1, d = 1, n = 7, n_pub = 3, the first three
rows public): X = (2, -1, 7, 3, 5, 7, 4), y = all 1, p = (0, 0, 0, 1, 1, 1, 1) vs the neighbour with
private row 4 replaced by (x, y) = (6, 0). Exact enumeration of the 9 outputs (exact softmax): the
largest log ratio is 1.718 on the output [[-1, 1]] (S^ empty, the halfspace {x >= 0}), against
claim 1; the spec's mechanism on the same pair: 0.915. At epsilon = 4 the same pair gives 7.00 against
4 (spec: 4.00). With more public rows the ratio n/n_priv grows (n_pub = 5 of 7: 3.5 epsilon).
"""
import itertools

import numpy as np

from dptestbed.impl.halfspace_mixtures.family import affine_hull, halfspace_family


def _law(data, epsilon):
    X = np.asarray(data["X"], dtype=np.float64)
    if X.ndim == 1:
        X = X[:, None]
    n, d = X.shape
    y = np.asarray(data["y"]).reshape(-1).astype(np.int64)
    p = np.asarray(data["p"]).reshape(-1).astype(np.int64)
    pub = np.nonzero(p == 0)[0]
    n_priv = n - pub.size
    empty = np.full((d, d + 1), -1, dtype=np.int64)
    empty[:, d] = 0
    if pub.size == 0:
        return [empty], np.array([1.0])
    Xp = X[pub]
    W = np.asarray(halfspace_family(Xp), dtype=np.float64)
    aff = affine_hull(Xp)
    tol = float(aff.tol)
    u = np.asarray(aff.u, dtype=np.float64).reshape(-1)
    B = np.asarray(aff.B, dtype=np.float64).reshape(-1, d)
    R = X - u[None, :]
    resid = R - (R @ B.T) @ B if B.size else R
    in_aff = np.linalg.norm(resid, axis=1) <= tol
    inside = (X @ W[:, :d].T) >= (W[:, d][None, :] - tol)      # (n, C)
    subsets = []
    for size in range(0, d + 1):
        for comb in itertools.combinations(range(pub.size), size):
            subsets.append(tuple(int(pub[i]) for i in comb))
    outs = [empty]
    mistakes = [int(np.count_nonzero(y != 1))]                   # constant 1
    C = W.shape[0]
    for size in range(1, d + 1):
        for J in itertools.combinations(range(C), size):
            g0 = in_aff & np.all(inside[:, list(J)], axis=1)
            pred = np.where(g0, 0, 1)
            mistakes.append(int(np.count_nonzero(pred != y)))
            enc = empty.copy()
            for r, a in enumerate(J):
                pos = subsets[a // 2]
                enc[r, :d] = -1
                enc[r, :len(pos)] = pos
                enc[r, d] = 1 if a % 2 == 0 else -1
            outs.append(enc)
    m = np.array(mistakes, dtype=np.float64)
    denom = max(n_priv, 1)
    logits = -epsilon * (m / denom) / (2.0 / n)
    logits -= logits.max()
    w = np.exp(logits)
    return outs, w / w.sum()


def learn(data, *, rng, epsilon):
    outs, pr = _law(data, epsilon)
    i = int(rng.choice(len(outs), p=pr))
    return outs[i].copy()


def _batch(data, N, *, rng, epsilon):
    outs, pr = _law(data, epsilon)
    idx = rng.choice(len(outs), size=N, p=pr)
    return np.stack(outs)[idx]


learn.batch = _batch
