"""Finite test classes and realizable distributions for seed 003 (note 003 Sections 4.3, 5.3).

A class is an int8 truth table ``H`` of shape (|H|, |X|) with entries +-1 (row h is
``(h(x))_{x in X}``, X = {0..|X|-1}); :func:`canonical` removes duplicate rows (convention C3).
A distribution over examples is a pair ``(p, c)``: ``p`` a probability vector over X and ``c``
the target truth table; examples are ``(x, c(x))`` with ``x ~ p`` (realizable by construction).

Hypotheses are compared as functions through :func:`hypothesis_id`, an injective,
data-independent integer code of a truth table (``1 + sum_x [h(x) = +1] 2^x``; 0 is Fail).
"""

from __future__ import annotations

import itertools

import numpy as np

FAIL_ID = 0


def canonical(H) -> np.ndarray:
    """Distinct rows of ``H`` (first occurrence kept, order preserved) as int8 +-1."""
    H = np.asarray(H)
    if H.ndim != 2:
        raise ValueError(f"H must be a 2-D truth table (|H|, |X|), got shape {H.shape}")
    if H.size and not np.isin(H, (-1, 1)).all():
        raise ValueError("H must have entries +1/-1 only")
    if H.shape[0] == 0:
        return H.astype(np.int8)
    _, first = np.unique(H, axis=0, return_index=True)
    return H[np.sort(first)].astype(np.int8)


def thresholds(N: int, all_cuts: bool = True) -> np.ndarray:
    """t_i(j) = +1 iff i <= j on X = {1..N} (index j-1), i = 1..N (+ N+1, the all -1 function)."""
    cuts = np.arange(1, N + 2 if all_cuts else N + 1)
    return np.where(cuts[:, None] <= np.arange(1, N + 1)[None, :], 1, -1).astype(np.int8)


def points(N: int, with_empty: bool = False) -> np.ndarray:
    """Point functions 1[x = i] on N points (+1 at i), optionally with the all -1 function."""
    H = np.where(np.eye(N, dtype=bool), 1, -1).astype(np.int8)
    return np.vstack([H, -np.ones((1, N), np.int8)]) if with_empty else H


def intervals(N: int) -> np.ndarray:
    """Intervals 1[a <= x <= b] (1 <= a <= b <= N) plus the all -1 function on N points."""
    rows = [[1 if a <= x <= b else -1 for x in range(N)] for a in range(N) for b in range(a, N)]
    return np.array(rows + [[-1] * N], dtype=np.int8)


def cube(N: int) -> np.ndarray:
    """All 2^N functions on N points."""
    return np.array(list(itertools.product((-1, 1), repeat=N)), dtype=np.int8)


def affine_subspaces(q: int, n: int, max_dim: int) -> np.ndarray:
    """Indicators of the affine subspaces of dimension <= max_dim of F_q^n (q prime), over the
    q^n points in lexicographic order (Section 1, l.57; erratum E12)."""
    pts = np.array(list(itertools.product(range(q), repeat=n)))
    index = {tuple(p): i for i, p in enumerate(pts)}
    sets = set()
    for dim in range(max_dim + 1):
        for basis in itertools.combinations(range(len(pts)), dim):
            span = {tuple(np.zeros(n, int))}
            for b in basis:
                span = {tuple((np.array(s) + c * pts[b]) % q) for s in span for c in range(q)}
            if len(span) != q ** dim:
                continue  # dependent vectors
            for shift in pts:
                sets.add(frozenset(index[tuple((np.array(s) + shift) % q)] for s in span))
    rows = [[1 if i in s else -1 for i in range(len(pts))] for s in sorted(sets, key=sorted)]
    return np.array(rows, dtype=np.int8)


def hypothesis_id(h) -> np.ndarray:
    """Canonical integer id of truth tables ``h`` (..., |X|): 1 + sum_x [h(x) = +1] 2^x;
    an all-zero row (Fail) maps to FAIL_ID = 0."""
    h = np.asarray(h)
    if h.shape[-1] > 62:
        raise ValueError(f"hypothesis ids need |X| <= 62, got {h.shape[-1]}")
    weights = np.left_shift(np.int64(1), np.arange(h.shape[-1], dtype=np.int64))
    ids = 1 + ((h > 0).astype(np.int64) * weights).sum(axis=-1)
    return np.where((h == 0).all(axis=-1), FAIL_ID, ids)


def hypothesis_from_id(ids, X: int) -> np.ndarray:
    """Inverse of :func:`hypothesis_id` (FAIL_ID -> all-zero row)."""
    ids = np.asarray(ids, dtype=np.int64)
    bits = (np.right_shift(ids[..., None] - 1, np.arange(X, dtype=np.int64)) & 1).astype(np.int8)
    return np.where(ids[..., None] == FAIL_ID, 0, 2 * bits - 1).astype(np.int8)


def boundary_distribution(H, target: int, rare: float) -> tuple[np.ndarray, np.ndarray]:
    """(p, c): target c = H[target]; mass ``rare`` on each point where c disagrees with some
    hypothesis that differs from c in exactly one point (the points next to the decision
    boundary), the rest spread uniformly on the other points. Rare boundary mass makes
    SOA(T) random, so tournaments really happen (note 003 Section 4.3 item 6)."""
    H = canonical(H)
    c = H[target]
    diff = H != c
    near = diff[diff.sum(axis=1) == 1].any(axis=0)
    if not near.any() or near.all():
        raise ValueError("boundary_distribution needs a target with a neighbour at Hamming distance 1 "
                         "and at least one point off the boundary")
    p = np.where(near, rare, (1 - rare * near.sum()) / (~near).sum())
    if p.min() < 0:
        raise ValueError(f"rare mass {rare} too large for {near.sum()} boundary points")
    return p, c


def loss(h, p, c) -> np.ndarray:
    """Exact loss_D(h) = sum_x p(x) [h(x) != c(x)] of truth tables ``h`` (..., |X|); Fail
    (all-zero rows) gets loss 1."""
    h = np.asarray(h)
    return ((h != np.asarray(c)) * np.asarray(p)).sum(axis=-1)


def draw(p, c, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``size`` i.i.d. examples (x, c(x)) with x ~ p."""
    x = rng.choice(len(p), size=size, p=p)
    return x.astype(np.int64), np.asarray(c, dtype=np.int8)[x]
