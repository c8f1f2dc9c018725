"""Non-private teachers for seed 002 (note section 4), vectorised over blocks.

Every learner takes k equally sized blocks (``X``, ``y`` of shape (k, m)) and returns k models;
each model reads only its own block (no state shared across blocks, pitfall P5).

- :func:`threshold_min_positive`: A_min for 1-D thresholds h_theta(x) = 1[x >= theta] (S1):
  t = min{x_i : y_i = 1}, +inf when the block has no positive. Exact law on U[0, 1] with target
  theta: Pr[err > a] = (1 - a)^m, so m_thr(a, b) = ceil(ln(1/b)/(-ln(1 - a))).
- intervals (S2): ERM of :func:`dptestbed.impl.learners.interval_erm` (consistent on realizable
  data); m_int(a, b) = ceil(ln(2/b)/(-ln(1 - a/2))).
- :func:`lookup`: the lookup learner on X = [d] (S3): majority seen label, ties and unseen -> 0.
- :func:`grid_erm`: agnostic ERM over N thresholds on a grid (S5); m_agn(a, b) = ceil(2 ln(2N/b)/a^2).
"""

from __future__ import annotations

import math

import numpy as np


def m_thresholds(alpha: float, beta: float) -> int:
    """Block size with Pr[err(A_min) > alpha] <= beta (note S1)."""
    return math.ceil(math.log(1 / beta) / -math.log1p(-alpha))


def m_intervals(alpha: float, beta: float) -> int:
    """Block size of the interval ERM (note S2)."""
    return math.ceil(math.log(2 / beta) / -math.log1p(-alpha / 2))


def m_lookup(alpha: float, beta: float, d: int) -> int:
    """Occam bound for the finite class {0,1}^[d] (note S3)."""
    return math.ceil((d * math.log(2) + math.log(1 / beta)) / alpha)


def m_agnostic(alpha: float, beta: float, N: int) -> int:
    """Hoeffding + union bound over N hypotheses: excess <= alpha w.p. >= 1 - beta (note S5)."""
    return math.ceil(2 * math.log(2 * N / beta) / alpha ** 2)


def threshold_min_positive(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """A_min per block: t_j = min{x_i : y_i = 1} (+inf without positives); shape (k,)."""
    X, y = np.atleast_2d(X), np.atleast_2d(y)
    return np.where(y == 1, X, np.inf).min(axis=1)


def threshold_min_positive_law(rng: np.random.Generator, theta: float, m: int, size) -> np.ndarray:
    """Exact law of A_min on m records of U[0, 1] labelled by 1[x >= theta]: t = theta + E with
    Pr[E > a] = (1 - a)^m, +inf when no record lands in [theta, 1] (note S1)."""
    t = theta + (1.0 - rng.random(size) ** (1.0 / m))
    return np.where(t > 1.0, np.inf, t)


def lookup(X: np.ndarray, y: np.ndarray, d: int) -> np.ndarray:
    """Lookup tables (k, d) int8 on X = [d]: majority seen label, ties and unseen points -> 0."""
    X, y = np.atleast_2d(X).astype(np.int64), np.atleast_2d(y).astype(np.int64)
    k = X.shape[0]
    flat = (np.arange(k)[:, None] * d + X).ravel()
    ones = np.bincount(flat, weights=y.ravel(), minlength=k * d).reshape(k, d)
    seen = np.bincount(flat, minlength=k * d).reshape(k, d)
    return (2 * ones > seen).astype(np.int8)


def grid_erm(X: np.ndarray, y: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Agnostic ERM over the thresholds 1[x >= g], g in ``grid`` (sorted): index per block (k,).
    Ties go to the smallest threshold."""
    X, y = np.atleast_2d(X), np.atleast_2d(y).astype(np.int64)
    grid = np.asarray(grid, dtype=float)
    # position of each record among the grid cuts: h_g(x) = 1 iff g <= x iff g index < pos
    pos = np.searchsorted(grid, X, side="right")                     # (k, m) in 0..N
    k, N = X.shape[0], grid.size
    flat = (np.arange(k)[:, None] * (N + 1) + pos).ravel()
    ones = np.bincount(flat, weights=y.ravel(), minlength=k * (N + 1)).reshape(k, N + 1)
    zeros = np.bincount(flat, weights=1 - y.ravel(), minlength=k * (N + 1)).reshape(k, N + 1)
    # threshold index g predicts 1 on records with pos > g: errors = ones with pos <= g + zeros with pos > g
    ones_le = np.cumsum(ones, axis=1)[:, :N]
    zeros_gt = zeros.sum(axis=1, keepdims=True) - np.cumsum(zeros, axis=1)[:, :N]
    return np.argmin(ones_le + zeros_gt, axis=1)


def lookup_votes(X: np.ndarray, y: np.ndarray, r: int, d: int) -> np.ndarray:
    """c_1 at every point of [d] for r lookup teachers on fixed positional blocks of m = n // r
    records, for T datasets at once: X, y of shape (T, n) -> int (T, d)."""
    X, y = np.atleast_2d(X).astype(np.int64), np.atleast_2d(y).astype(np.int64)
    T, n = X.shape
    m = n // r
    block = np.repeat(np.arange(T * r), m)                       # block id of each used record
    keys = block * d + X[:, : r * m].ravel()
    unique, inverse = np.unique(keys, return_inverse=True)
    ones = np.bincount(inverse, weights=y[:, : r * m].ravel())
    seen = np.bincount(inverse)
    votes = 2 * ones > seen                                      # the teacher of that block says 1 there
    c1 = np.zeros(T * d, dtype=np.int64)
    np.add.at(c1, (unique // d // r) * d + unique % d, votes.astype(np.int64))
    return c1.reshape(T, d)
