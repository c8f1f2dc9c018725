"""halfspace_family -- VALID VARIANT (another Step-5 choice: first SVD null vector).

What it is: A_ConstrHalf (paper 001, Algorithm 1): for every subset S^ of at most d
public-example indices (sizes 0..d, then itertools.combinations order) output a
closed halfspace supported by S^ (its boundary hyperplane contains S^) and its
opposite: rows 2s = (w, w_0), 2s+1 = (-w, -w_0), |w| = 1, h = {x : w.x >= w_0}.
Step 5 lets the algorithm pick "an arbitrary halfspace supported by S^"; the spec
says the family's checks accept any non-degenerate Step-5 choice.

Variant: the same admissible direction set A as the spec (directions of Aff
orthogonal to every s - s_1 when S^ does not span Aff; the orthogonal complement
of Aff's directions when it does), but w is the FIRST vector of an SVD null-space
basis of A (sign fixed so its first non-zero coordinate is positive) instead of the
projection of the first of V_0, e_1..e_d. Aff, tol = 1e-9 max(1, max|X_pub|) and the
rank tolerance tol*max(1, sqrt|S^|) are the spec's. The empty subset keeps the
spec's fixed pair (V_0/|V_0|, 0) and its opposite. n_pub = 0 -> shape (0, d+1).

TRUTH: every row is a unit normal, w.s = w_0 for s in S^ (supported), w lies in
Aff's directions whenever S^ does not span Aff (so the hyperplane never contains
Aff unless S^ spans it), rows come in opposite pairs and in the spec's order:
the family C~_pub of Algorithm 1 for a legitimate Step-5 choice. Counts |W| =
sum_{i<=d} C(n_pub, i), |C~_pub| = 2|W| (14 at d = 2, n_pub = 3). Own check
(REPORT.md): 2,000 random public sets (d = 1..4, n_pub = 0..7, with repeats and
collinear/coplanar points): max |w.s - w_0| = 4e-15, | |w| - 1 | < 3e-16,
0 rows whose hyperplane contains Aff when S^ does not span it.
"""
import itertools

import numpy as np

_V0 = np.sqrt(np.array([2.0, 3.0, 5.0, 7.0, 11.0]))


def _aff(X):
    u = X[0]
    tol = 1e-9 * max(1.0, float(np.max(np.abs(X))))
    D = X - u
    if D.shape[0] == 0 or not np.any(D):
        return u, np.zeros((0, X.shape[1])), tol
    _, s, vt = np.linalg.svd(D, full_matrices=False)
    k = int(np.sum(s > tol))
    return u, vt[:k], tol


def _null_rows(M, dim, tol):
    """Orthonormal basis (rows) of {c in R^dim : M c = 0}, rank at tolerance tol."""
    if M.shape[0] == 0:
        return np.eye(dim)
    _, s, vt = np.linalg.svd(M, full_matrices=True)
    r = int(np.sum(s > tol))
    return vt[r:]


def _fix_sign(w):
    nz = np.flatnonzero(np.abs(w) > 1e-12)
    if nz.size and w[nz[0]] < 0:
        w = -w
    return w


def family(data, *, rng=None, **params):
    X = np.asarray(data, dtype=np.float64)
    n_pub, d = X.shape
    if n_pub == 0:
        return np.zeros((0, d + 1), dtype=np.float64)
    u, B, tol = _aff(X)
    k = B.shape[0]
    rows = []
    v0 = _V0[:d] / np.linalg.norm(_V0[:d])
    for size in range(0, d + 1):
        for idx in itertools.combinations(range(n_pub), size):
            if size == 0:
                w, w0 = v0.copy(), 0.0
            else:
                S = X[list(idx)]
                M = S[1:] - S[0]
                rtol = tol * max(1.0, np.sqrt(size))
                if M.shape[0]:
                    rank = int(np.sum(np.linalg.svd(M, compute_uv=False) > rtol))
                else:
                    rank = 0
                if rank >= k:        # S^ spans Aff: normal orthogonal to Aff
                    A = _null_rows(B, d, rtol) if k else np.eye(d)
                else:                # directions of Aff orthogonal to S^ - s_1
                    C = _null_rows(M @ B.T if M.shape[0] else np.zeros((0, k)), k, rtol)
                    A = C @ B
                w = A[0]
                w = _fix_sign(w / np.linalg.norm(w))
                w0 = float(w @ S.mean(axis=0))
            rows.append(np.concatenate([w, [w0]]))
            rows.append(np.concatenate([-w, [-w0]]))
    return np.array(rows, dtype=np.float64)
