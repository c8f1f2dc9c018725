"""halfspace_family -- BUG (structural: public points de-duplicated before the subsets).

What it is: tb_half_valid_dir.py's A_ConstrHalf, but the public points are first
de-duplicated ("repeated public points give the same halfspaces anyway"), keeping the
first occurrence and the original order, and the subsets are taken over the DISTINCT
points.  The spec indexes subsets by public-EXAMPLE indices (public points may repeat).
TRUTH: inputs without repeated public points: identical to the valid variant (passes).
With repeats the family has 2 sum_{i<=d} C(n_distinct, i) rows instead of
2 sum_{i<=d} C(n_pub, i): d = 2, X_pub = [[0,0],[0,0],[1,0]] gives 2*(1+2+1) = 8 rows
instead of 2*(1+3+3) = 14 (Section 4's |C~_pub| = 2|W| fails, and row 2s no longer belongs
to the s-th subset of example indices).  Geometrically the same set of supported
halfspaces (Cor. 4.4 / Lemma 4.5 still hold).
"""
import itertools
import math

import numpy as np

_GEN = np.array([math.pi - 3.0, math.e - 2.0, math.sqrt(2.0) - 1.0,
                 (1.0 + math.sqrt(5.0)) / 2.0 - 1.0, math.log(2.0)])


def _rowspace(M, tol):
    if M.shape[0] == 0:
        return np.zeros((0, M.shape[1]))
    U, s, Vt = np.linalg.svd(M, full_matrices=True)
    k = int((s > tol).sum())
    return Vt[:k]


def _nullspace(M, dim, tol):
    if M.shape[0] == 0:
        return np.eye(dim)
    U, s, Vt = np.linalg.svd(M, full_matrices=True)
    k = int((s > tol).sum())
    return Vt[k:]


def family(data, *, rng=None, d=None, **params):
    X = np.asarray(data, dtype=np.float64)
    if X.shape[0]:
        _, first = np.unique(X, axis=0, return_index=True)
        X = X[np.sort(first)]
    n, dim = X.shape
    if n == 0:
        return np.zeros((0, dim + 1), dtype=np.float64)
    tol = 1e-9 * max(1.0, float(np.abs(X).max()))
    Baff = _rowspace(X - X[0], tol)              # k x dim, orthonormal directions of Aff
    kaff = Baff.shape[0]
    gens = [_GEN[:dim].copy()] + [np.eye(dim)[j] for j in range(dim - 1, -1, -1)]
    rows = []
    for size in range(0, dim + 1):
        for sub in itertools.combinations(range(n), size):
            if size == 0:
                v = gens[0] / np.linalg.norm(gens[0])
                rows.append(np.concatenate([v, [0.0]]))
                rows.append(np.concatenate([-v, [-0.0]]))
                continue
            S = X[list(sub)]
            Ds = S - S[0]
            rtol = tol * max(1.0, math.sqrt(size))
            rank_s = _rowspace(Ds, rtol).shape[0]
            if rank_s < kaff:
                # directions of Aff orthogonal to every difference of S^
                M = Ds @ Baff.T if kaff else np.zeros((0, 0))
                N = _nullspace(M, kaff, rtol)     # (kaff - rank) x kaff
                A = N @ Baff
            else:
                A = _nullspace(Baff, dim, tol) if kaff else np.eye(dim)
            w = None
            for g in gens:
                p = A.T @ (A @ g)
                if np.linalg.norm(p) > 1e-6 * np.linalg.norm(g):
                    w = p / np.linalg.norm(p)
                    break
            w0 = float(np.mean(S @ w))
            rows.append(np.concatenate([w, [w0]]))
            rows.append(np.concatenate([-w, [-w0]]))
    return np.array(rows, dtype=np.float64)
