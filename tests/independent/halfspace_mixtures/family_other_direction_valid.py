"""halfspace_family -- VALID VARIANT (another admissible Step-5 choice).

What it is: A_ConstrHalf (paper 001, Algorithm 1): for every subset S^ of at most d public
examples (sizes 0..d, then itertools.combinations order), one closed halfspace whose
bounding hyperplane is supported by S^ (contains every point of S^), and its opposite;
rows 2s, 2s+1 = (w, w_0), (-w, -w_0), |w| = 1.  The construction of the normal follows the
spec's geometric rule (the normal lies in the directions A of Aff orthogonal to S^'s
differences when S^ does not span Aff, else in the orthogonal complement of Aff, so the
hyperplane never contains Aff unless S^ spans Aff), but the "arbitrary" Step-5 choice
differs: the generic vector is V_0' = (pi - 3, e - 2, sqrt 2 - 1, phi - 1, ln 2)[:d] (then
e_d, ..., e_1 as fall-backs) instead of the testbed's (sqrt 2, sqrt 3, ...), the projection
uses an orthonormal basis from an SVD null space, and w_0 = mean_s (w . s).  The empty
subset gets (V_0'/|V_0'|, 0) and its opposite.
TRUTH: the paper's Algorithm 1 says "an arbitrary halfspace supported by S^"; the spec says
"The family's checks accept any non-degenerate Step-5 choice (the paper's 'arbitrary')".
Every row is a unit-normal halfspace whose hyperplane contains its S^ (to ~1e-15), the
opposite row is its exact negation, the counts are |C~_pub| = 2 sum_{i<=d} C(n_pub, i),
and the non-degeneracy (hyperplane not containing Aff unless S^ spans Aff) holds.  Rows
differ numerically from the testbed's own choice by design.
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
