"""Soft-majority vote over r teachers (seed 002 Section 3.1, Theorem 1; note ALG-1).

Contract: ``subsample_aggregate_prediction_corrected(data, *, rng, epsilon, alpha, beta)``.

``data`` is either
- the votes at the query x: int array ``[c_0, c_1]`` (the spec's input abstraction), or
- a dataset ``{"X": (n,), "y": (n,), "x": query or array of queries}`` of 1-D threshold data:
  the first r*m records (m = n // r, a fixed positional partition; n is public) are cut into r
  blocks, teacher f_j = A_min(block j) (``teachers.threshold_min_positive``), and each query is
  answered from its own votes with fresh coins.

Output: label 1 with probability p(nu) = e^(eps nu/2)/(1 + e^(eps nu/2)), nu = c_1 - c_0 (proof of
Theorem 1, line 63), a stable logistic; only the label. ``int`` for one query of one run; the batch
sampler returns int8 of shape (N,) for one query, (N, q) for q queries.

r = ceil(6 ln(4/alpha)/epsilon) (Theorem 1). The printed spec (``subsample_aggregate_prediction``)
sizes teachers as m(delta/4, beta/r) (erratum 002-E3); the mechanism is the same, only the sample
size n of the theorem check differs, so both specs share these functions.

``subsample_aggregate_prediction_broken``: the prose's Pr[b] proportional to exp(eps c_b), i.e.
p = logistic(eps nu) (erratum 002-E1: 2 eps-DP).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import expit

from dptestbed.impl.contract import batched

from .teachers import threshold_min_positive


def n_teachers(epsilon: float, alpha: float) -> int:
    """r = ceil(6 ln(4/alpha)/epsilon) (Theorem 1 statement)."""
    if not epsilon > 0 or not 0 < alpha < 1:
        raise ValueError(f"need epsilon > 0 and 0 < alpha < 1, got epsilon={epsilon!r}, alpha={alpha!r}")
    return math.ceil(6 * math.log(4 / alpha) / epsilon)


def vote_probability(nu, epsilon: float, factor: float = 0.5) -> np.ndarray:
    """Pr[label 1] = logistic(factor * epsilon * nu) (factor 1/2: Theorem 1; 1: the prose, E1)."""
    return expit(factor * epsilon * np.asarray(nu, dtype=float))


def _votes(data) -> np.ndarray:
    c = np.asarray(data)
    if c.shape != (2,) or not np.issubdtype(c.dtype, np.number) or np.any(c < 0) or np.any(c != np.round(c)):
        raise ValueError(f"votes must be two non-negative integer counts [c_0, c_1], got {data!r}")
    return c.astype(np.int64)


def teacher_votes(data: dict, r: int) -> np.ndarray:
    """Votes c_1 at each query of a threshold dataset: r teachers on fixed positional blocks of
    m = n // r records; returns (nu per query, scalar_query flag)."""
    try:
        X, y, x = (np.asarray(data[key], dtype=float) for key in ("X", "y", "x"))
    except KeyError as missing:
        raise ValueError(f"dataset must have keys 'X', 'y', 'x'; missing {missing}") from None
    if X.ndim != 1 or X.shape != y.shape:
        raise ValueError(f"X and y must be 1-D of equal length, got {X.shape} and {y.shape}")
    m = X.size // r
    if m < 1:
        raise ValueError(f"need n >= r = {r} records, got n = {X.size}")
    t = threshold_min_positive(X[: r * m].reshape(r, m), y[: r * m].reshape(r, m))   # f_j = A(S_j)
    c1 = (np.atleast_1d(x)[None, :] >= t[:, None]).sum(axis=0)
    return 2 * c1 - r


def margins(data, r: int) -> tuple[np.ndarray, bool]:
    """nu at each query (array) and whether data names a single query."""
    if isinstance(data, dict):
        return teacher_votes(data, r), np.ndim(data["x"]) == 0
    c = _votes(data)
    return np.array([c[1] - c[0]]), True


def _sample(data, n, rng, epsilon, alpha, factor):
    nu, single = margins(data, n_teachers(epsilon, alpha) if isinstance(data, dict) else 0)
    p = vote_probability(nu, epsilon, factor)
    out = (rng.random((int(n), p.size)) < p[None, :]).astype(np.int8)
    return out[:, 0] if single else out


def _batch(data, n, *, rng, epsilon, alpha, **_):
    return _sample(data, n, rng, epsilon, alpha, 0.5)


@batched(_batch)
def subsample_aggregate_prediction_corrected(data, *, rng, epsilon, alpha, **_):
    """Soft majority with p = logistic(eps nu/2): epsilon-DP for every teacher learner."""
    out = _batch(data, 1, rng=rng, epsilon=epsilon, alpha=alpha)[0]
    return int(out) if np.ndim(out) == 0 else out


subsample_aggregate_prediction = subsample_aggregate_prediction_corrected


def _batch_broken(data, n, *, rng, epsilon, alpha, **_):
    return _sample(data, n, rng, epsilon, alpha, 1.0)


@batched(_batch_broken)
def subsample_aggregate_prediction_broken(data, *, rng, epsilon, alpha, **_):
    """AS PRINTED in the prose (E1): Pr[b] proportional to exp(eps c_b), p = logistic(eps nu)."""
    out = _batch_broken(data, 1, rng=rng, epsilon=epsilon, alpha=alpha)[0]
    return int(out) if np.ndim(out) == 0 else out


def exact_label_law(nu, epsilon: float, factor: float = 0.5) -> np.ndarray:
    """[Pr[0], Pr[1]] at margin nu (for the exact privacy profiles)."""
    p1 = float(vote_probability(nu, epsilon, factor))
    return np.array([1.0 - p1, p1])
