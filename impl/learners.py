"""Non-private learners used inside the private algorithms, vectorised over chunks.

Every learner takes a batch of k equally sized training sets, ``X`` of shape (k, n') and
``y`` of shape (k, n'), and trains k independent models in one numpy call (no Python loop
over records). Learners are pure functions of their chunk (and of an explicit ``rng`` where
they are randomised): no state is shared across chunks (seed 000 trap P2).

- :func:`threshold_erm`: ERM for 1-D thresholds h_t(x) = 1[x >= t] (VC dimension 1);
  :func:`threshold_erm_sorted` the same on rows already sorted.
- :func:`interval_erm`: ERM for 1-D intervals h_{a,b}(x) = 1[a <= x <= b] (VC dimension 2).
- :func:`sgd_logistic`: one-pass projected SGD for L2-regularised logistic regression in 1-D,
  the soft-label learner B of seed 000 Sec. 5 (soft label sigmoid(w0 + w1 x)).
"""

from __future__ import annotations

import numpy as np


def threshold_erm(X: np.ndarray, y: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Empirical risk minimisers t (shape (k,)) for h_t(x) = 1[x >= t], one per row.

    Ties go to the smallest threshold. The threshold is a training point (or +inf when
    predicting 0 everywhere is best), so the ERM is consistent on realizable data.
    ``weights``: an integer weight per point (broadcast against X), each mistake counted that many times.
    """
    X, y = np.atleast_2d(X), np.atleast_2d(y).astype(np.int64)
    order = np.argsort(X, axis=1, kind="stable")
    ws = None if weights is None else \
        np.take_along_axis(np.broadcast_to(np.asarray(weights, dtype=np.int64), X.shape), order, axis=1)
    return threshold_erm_sorted(np.take_along_axis(X, order, axis=1), np.take_along_axis(y, order, axis=1), ws)


def threshold_erm_sorted(xs: np.ndarray, ys: np.ndarray, ws: np.ndarray | None = None) -> np.ndarray:
    """:func:`threshold_erm` of rows ``xs`` already in increasing order (labels ``ys`` and weights ``ws`` in
    the same order)."""
    xs, ys = np.atleast_2d(xs), np.atleast_2d(ys)
    k, n = xs.shape
    # Cut j predicts 0 on the j smallest points and 1 on the rest: its errors are the ones among the first j
    # plus the zeros among the last n - j, that is (every zero) + sum over the first j of (+w for a one, -w
    # for a zero); the first term is the same for every cut of a row, so the prefix sums alone are compared.
    step = 2 * ys.astype(np.int64) - 1
    if ws is not None:
        step *= ws
    score = np.zeros((k, n + 1), np.int64)
    np.cumsum(step, axis=1, out=score[:, 1:])
    # A cut between equal x values is not realisable by any threshold: forbid it.
    tied = xs[:, 1:] == xs[:, :-1]
    if tied.any():
        score[:, 1:-1][tied] = np.iinfo(np.int64).max
    best = np.argmin(score, axis=1)
    padded = np.concatenate([xs, np.full((k, 1), np.inf)], axis=1)
    return padded[np.arange(k), best]


def predict_threshold(t: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Predictions 1[x >= t] of k thresholds on m points: shape (k, m), int8."""
    return (np.asarray(x)[None, :] >= np.asarray(t)[:, None]).astype(np.int8)


def interval_erm(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """ERM intervals [a, b] (shape (k, 2)) for h(x) = 1[a <= x <= b], one per row.

    Maximises (ones inside) - (zeros inside) over intervals with training-point end points
    (a maximum-sum contiguous run of +1/-1 weights in sorted order); an empty interval
    (a = +inf, b = -inf) when predicting 0 everywhere is best.
    """
    X, y = np.atleast_2d(X), np.atleast_2d(y)
    order = np.argsort(X, axis=1, kind="stable")
    xs = np.take_along_axis(X, order, axis=1)
    weights = np.where(np.take_along_axis(y, order, axis=1) == 1, 1, -1)
    k, n = xs.shape
    # Points with equal x are inseparable: an interval contains all of them or none. Runs may
    # end only at the last point of a group of ties; a run starting inside a group still counts
    # the whole group because prefix sums only step at the group's last point.
    last_of_group = np.concatenate([xs[:, 1:] != xs[:, :-1], np.ones((k, 1), bool)], axis=1)
    cumulative = np.cumsum(weights, axis=1)
    last_closed = np.maximum.accumulate(np.where(last_of_group, np.arange(n), -1), axis=1)
    stepped = np.where(last_closed >= 0, np.take_along_axis(cumulative, np.maximum(last_closed, 0), axis=1), 0)
    prefix = np.concatenate([np.zeros((k, 1), np.int64), stepped], axis=1)
    running_min = np.minimum.accumulate(prefix, axis=1)
    start_of_min = _argmin_accumulate(prefix)
    gain = np.where(last_of_group, prefix[:, 1:] - running_min[:, :-1], np.iinfo(np.int64).min)
    end = np.argmax(gain, axis=1)
    best = gain[np.arange(k), end]
    start = start_of_min[np.arange(k), end]              # run covers sorted points start..end
    a = xs[np.arange(k), start]
    b = xs[np.arange(k), end]
    empty = best <= 0
    return np.stack([np.where(empty, np.inf, a), np.where(empty, -np.inf, b)], axis=1)


def _argmin_accumulate(prefix: np.ndarray) -> np.ndarray:
    """Index of the running minimum of each row's prefix sums (first occurrence)."""
    running_min = np.minimum.accumulate(prefix, axis=1)
    strictly_new = np.concatenate([np.ones((prefix.shape[0], 1), bool), prefix[:, 1:] < running_min[:, :-1]], axis=1)
    return np.maximum.accumulate(np.where(strictly_new, np.arange(prefix.shape[1]), 0), axis=1)


def predict_interval(ab: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Predictions of k intervals on m points: shape (k, m), int8."""
    x = np.asarray(x)[None, :]
    return ((x >= ab[:, :1]) & (x <= ab[:, 1:])).astype(np.int8)


def sgd_logistic(X: np.ndarray, y: np.ndarray, *, eta: float, reg: float, radius: float,
                 rng: np.random.Generator | None = None) -> np.ndarray:
    """One pass of projected SGD on the L2-regularised logistic loss, k chunks at once.

    Model: soft label sigmoid(w0 + w1 x). Step t: w <- Proj_{||w|| <= radius}(w - eta *
    (grad logistic loss at (x_t, y_t) + reg * w)), from w = 0. With ``rng`` the records of each
    chunk are visited in an independent uniformly random order (permutation SGD, which has
    consistent randomization, seed 000 Def. 5.9); without it, in the given order
    (deterministic one-pass SGD). Returns weights of shape (k, 2).
    """
    X, y = np.atleast_2d(X).astype(float), np.atleast_2d(y).astype(float)
    k, n = X.shape
    if rng is not None:
        order = np.argsort(rng.random((k, n)), axis=1)
        X, y = np.take_along_axis(X, order, axis=1), np.take_along_axis(y, order, axis=1)
    w = np.zeros((k, 2))
    for t in range(n):
        x_t = X[:, t]
        p = 1.0 / (1.0 + np.exp(-(w[:, 0] + w[:, 1] * x_t)))
        residual = p - y[:, t]
        w = w - eta * (np.stack([residual, residual * x_t], axis=1) + reg * w)
        norm = np.linalg.norm(w, axis=1, keepdims=True)
        w = np.where(norm > radius, w * (radius / np.maximum(norm, 1e-300)), w)
    return w


def predict_logistic(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Soft labels sigmoid(w0 + w1 x) of k models on m points: shape (k, m), in [0, 1]."""
    z = w[:, :1] + w[:, 1:] * np.asarray(x, dtype=float)[None, :]
    return 1.0 / (1.0 + np.exp(-z))
