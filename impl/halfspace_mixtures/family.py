"""Algorithm 1 of seed 001 (A_ConstrHalf): the public halfspace family C~_pub and Aff.

Contract: ``halfspace_family(data, *, rng=None)``; ``data`` = float array X_pub (n_pub, d) of
the unlabeled public points (Step 1). Output: float64 array W of shape (C_size, d + 1), row
a = (w_1..w_d, w_0) the closed halfspace h_a = {x : w.x >= w_0}, |w| = 1; rows 2s, 2s + 1 are the
halfspace supported by the s-th subset of public-example indices and its opposite (subsets by
size 0..d, then in itertools.combinations order); shape (0, d + 1) when n_pub = 0. Deterministic:
``rng`` is accepted for the contract and never used.

Aff (Step 7) is :func:`affine_hull`, a deterministic function of the public points returned
separately (the engine's outputs are numeric arrays); :func:`inside` is the closed-membership
test with the public-scale tolerance that both the learner and the checks use.

Step 5 ("an arbitrary halfspace supported by S^") is the spec's closed-form rule (note 001
section 2.1, trap U1; erratum 001-E3): the normal is the projection of the first of the fixed
directions V_0 = (sqrt 2, sqrt 3, sqrt 5, sqrt 7, sqrt 11)[:d], then e_1, ..., e_d whose
projection is not numerically 0 (norm above 1e-6 times its own), onto the directions of Aff
orthogonal to aff(S^); when S^ spans Aff, onto the complement of Aff's directions (the
hyperplane then contains Aff, which G needs for 1(x not in Aff)); w_0 = w.mean(S^). S^ = empty
set gets the fixed pair {V_0.x >= 0}, {V_0.x <= 0}. The rule depends on (S^, Aff) only (the
compression requirement of Lemma 4.8), and a reader of the spec reproduces it exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import comb

import numpy as np

from dptestbed.impl.contract import batched

RELATIVE_TOL = 1e-9   # membership / rank tolerance, times the public scale max(1, max|X_pub|)
_ROOT_PRIMES = np.sqrt([2.0, 3.0, 5.0, 7.0, 11.0])   # V_0: coordinates no rational multiples of each other


@dataclass(frozen=True)
class Aff:
    """Affine hull of the public points: u + span(B) (B: (k, d) orthonormal rows); tol: the
    public-scale tolerance of every membership test."""

    u: np.ndarray
    B: np.ndarray
    tol: float

    @property
    def k(self) -> int:
        return self.B.shape[0]

    def contains(self, X: np.ndarray) -> np.ndarray:
        """x in Aff iff |(I - B^T B)(x - u)| <= tol; bool (n,)."""
        D = np.asarray(X, float) - self.u
        residual = D - (D @ self.B.T) @ self.B
        return np.linalg.norm(residual, axis=1) <= self.tol


def public_points(data) -> np.ndarray:
    """``data`` as a finite float (n_pub, d) array, with a clear error otherwise."""
    X = np.asarray(data, dtype=float)
    if X.ndim != 2 or X.shape[1] < 1:
        raise ValueError(f"public points must be a 2-D array (n_pub, d) with d >= 1, got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("public points must be finite")
    return X


def affine_hull(X_pub: np.ndarray) -> Aff | None:
    """Step 7: Aff by SVD of {x - u}, u = the first public point; None when n_pub = 0."""
    X = public_points(X_pub)
    if X.shape[0] == 0:
        return None
    tol = RELATIVE_TOL * max(1.0, float(np.max(np.abs(X))))
    u = X[0].copy()
    _, s, Vt = np.linalg.svd(X - u, full_matrices=False)
    k = int(np.sum(s > tol * max(1.0, np.sqrt(X.shape[0]))))
    return Aff(u=u, B=Vt[:k].copy(), tol=tol)


def step5_directions(d: int) -> np.ndarray:
    """The Step-5 rule's fixed directions (d + 1, d): V_0 = (sqrt 2, sqrt 3, ...)[:d], then the
    coordinate axes e_1..e_d (they span R^d, so one of them always projects)."""
    return np.vstack([_ROOT_PRIMES[:d], np.eye(d)])


def family_size(n_pub: int, d: int) -> int:
    """|C~_pub| = 2 sum_{i<=d} C(n_pub, i), 0 when n_pub = 0."""
    return 0 if n_pub == 0 else 2 * sum(comb(n_pub, i) for i in range(d + 1))


def subsets(n_pub: int, d: int) -> np.ndarray:
    """The subsets S^ of Step 3 in C~_pub's order (size 0..d, then itertools.combinations order),
    as public ranks: int64 (|W|, d), sorted, padded with -1; row s defines rows 2s, 2s + 1."""
    if n_pub == 0:
        return np.zeros((0, d), np.int64)
    rows = [np.full((1, d), -1, np.int64)]
    for r in range(1, min(d, n_pub) + 1):
        idx = np.array(list(combinations(range(n_pub), r)), np.int64)
        rows.append(np.pad(idx, ((0, 0), (0, d - r)), constant_values=-1))
    return np.concatenate(rows)


def subset_rows(R: np.ndarray, n_pub: int) -> np.ndarray:
    """Inverse of :func:`subsets` for n_pub >= 1: sorted public ranks R (..., d), -1 padded ->
    their row in ``subsets(n_pub, d)``: sum_{i<r} C(n_pub, i) plus the lexicographic rank
    C(n_pub, r) - 1 - sum_i C(n_pub - 1 - c_i, r - i) of the r-subset (c_0 < ... < c_{r-1})."""
    R = np.asarray(R, np.int64)
    d = R.shape[-1]
    C = np.zeros((n_pub + 1, d + 1), np.int64)                   # Pascal's triangle, C[a, b] = comb(a, b)
    C[:, 0] = 1
    for a in range(1, n_pub + 1):
        C[a, 1:] = C[a - 1, 1:] + C[a - 1, :-1]
    listed = R >= 0
    r = listed.sum(axis=-1)
    k = np.clip(r[..., None] - np.arange(d), 0, d)
    terms = np.where(listed, C[np.clip(n_pub - 1 - R, 0, n_pub), k], 0).sum(axis=-1)
    offset = np.concatenate([[0], np.cumsum(C[n_pub, :d])])
    return offset[r] + C[n_pub, r] - 1 - terms


def _null_rows(A: np.ndarray, tol: float) -> tuple[np.ndarray, np.ndarray]:
    """Batched null spaces: A (m, r, k) -> (Vt (m, k, k), mask (m, k) of null-space rows)."""
    m, r, k = A.shape
    if r == 0:
        return np.broadcast_to(np.eye(k), (m, k, k)), np.ones((m, k), bool)
    _, s, Vt = np.linalg.svd(A, full_matrices=True)
    rank = np.sum(s > tol, axis=1)
    return Vt, np.arange(k)[None, :] >= rank[:, None]


def _project_generic(basis: np.ndarray, mask: np.ndarray, directions: np.ndarray) -> np.ndarray:
    """Unit normals (m, d): the first of ``directions`` whose projection onto the span of the
    masked rows of ``basis`` (m, q, d) is not numerically 0."""
    m, _, d = basis.shape
    w = np.zeros((m, d))
    todo = np.ones(m, bool)
    for v in directions:
        coef = np.where(mask, basis @ v, 0.0)                       # (m, q)
        proj = np.einsum("mq,mqd->md", coef, basis)
        norm = np.linalg.norm(proj, axis=1)
        take = todo & (norm > 1e-6 * np.linalg.norm(v))
        w[take] = proj[take] / norm[take, None]
        todo &= ~take
        if not todo.any():
            return w
    raise ArithmeticError("no generic direction projects onto the allowed normal space")


def supported_normals(S: np.ndarray, aff: Aff, directions: np.ndarray) -> np.ndarray:
    """Step 5 for a batch of subsets S (m, r, d), r >= 1: rows (w, w_0), |w| = 1, S on w.x = w_0;
    the normal is the first of ``directions`` not orthogonal to the allowed normal space."""
    m, r, d = S.shape
    full = np.eye(d)
    B = aff.B
    # Directions of aff(S^) in Aff's coordinates; their null space inside Aff = allowed normals.
    E = (S[:, 1:, :] - S[:, :1, :]) @ B.T                           # (m, r - 1, k)
    w = np.zeros((m, d))
    if aff.k > 0:
        Vt, mask = _null_rows(E, aff.tol * max(1.0, np.sqrt(r)))
        inside_aff = mask.any(axis=1)
        if inside_aff.any():
            basis = Vt[inside_aff] @ B                               # (m', k, d) rows in R^d
            w[inside_aff] = _project_generic(basis, mask[inside_aff], directions)
    else:
        inside_aff = np.zeros(m, bool)
    spans = ~inside_aff                                              # S^ spans Aff: normal off Aff
    if spans.any():
        comp = np.linalg.svd(B, full_matrices=True)[2][aff.k:] if aff.k > 0 else full
        basis = np.broadcast_to(comp, (int(spans.sum()),) + comp.shape)
        w[spans] = _project_generic(basis, np.ones(basis.shape[:2], bool), directions)
    w0 = np.einsum("md,md->m", w, S.mean(axis=1))
    return np.concatenate([w, w0[:, None]], axis=1)


def _batch(data, n, *, rng=None):
    W = halfspace_family(data)
    return np.broadcast_to(W, (int(n),) + W.shape).copy()


@batched(_batch)
def halfspace_family(data, *, rng=None) -> np.ndarray:
    """Algorithm 1: W (C_size, d + 1), supported halfspace and its opposite per subset of
    at most d public points (Steps 3-6); see the module docstring for the encoding."""
    X = public_points(data)
    return build_family(X, step5_directions(X.shape[1]), affine_hull(X))


def build_family(X: np.ndarray, directions: np.ndarray, aff: Aff | None) -> np.ndarray:
    """Steps 3-6 with the Step-5 rule's fixed ``directions`` (k, d), normals chosen inside
    ``aff``'s directions (see the module docstring)."""
    n_pub, d = X.shape
    if n_pub == 0:
        return np.zeros((0, d + 1))                    # the paper: C~_pub = empty set
    v0 = directions[0] / np.linalg.norm(directions[0])
    rows = [np.concatenate([v0, [0.0]])[None, :]]      # S^ = empty set: the fixed pair
    S = subsets(n_pub, d)
    size = np.sum(S >= 0, axis=1)
    for r in range(1, min(d, n_pub) + 1):
        rows.append(supported_normals(X[S[size == r, :r]], aff, directions))
    H = np.concatenate(rows)
    W = np.empty((2 * H.shape[0], d + 1))
    W[0::2], W[1::2] = H, -H                           # Step 6: h and its opposite h_-
    return W


MEMBERSHIP_BLOCK = 1 << 22    # float64 products per block of :func:`inside` (32 MB)


def inside(W: np.ndarray, aff: Aff | None, X: np.ndarray) -> np.ndarray:
    """Closed membership with Aff: bool (M, n), [a, i] = x_i in h_a and x_i in Aff (the
    tolerance is Aff.tol, from the public points only)."""
    X = np.asarray(X, float)
    if aff is None or W.shape[0] == 0:
        return np.zeros((W.shape[0], X.shape[0]), bool)
    out = np.empty((W.shape[0], X.shape[0]), bool)
    rows = max(1, MEMBERSHIP_BLOCK // max(1, X.shape[0]))        # the products in blocks of rows: at n = 10^5 and
    for a in range(0, W.shape[0], rows):                          # |C~_pub| = 10^4 one product would be 8 GB
        np.greater_equal(W[a:a + rows, :-1] @ X.T, W[a:a + rows, -1:] - aff.tol, out=out[a:a + rows])
    out &= aff.contains(X)[None, :]
    return out
