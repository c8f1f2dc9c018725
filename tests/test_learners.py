"""The chunk learners are exact ERMs (checked against brute force) and vectorised over chunks."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from dptestbed.impl.learners import (
    interval_erm,
    predict_interval,
    predict_logistic,
    predict_threshold,
    sgd_logistic,
    threshold_erm,
)

samples = st.integers(1, 9).flatmap(lambda n: st.tuples(
    arrays(np.float64, (3, n), elements=st.integers(0, 4).map(float)),
    arrays(np.int64, (3, n), elements=st.integers(0, 1))))


def _errors(pred, y):
    return (pred != y).sum(axis=-1)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(samples)
def test_threshold_and_interval_erm_match_brute_force(sample):
    X, y = sample
    t = threshold_erm(X, y)
    ab = interval_erm(X, y)
    for j in range(X.shape[0]):
        cands = [*np.unique(X[j]), np.inf]
        best_t = min(_errors((X[j] >= c).astype(int), y[j]) for c in cands)
        assert _errors(predict_threshold(t[j:j + 1], X[j])[0], y[j]) == best_t
        intervals = [(a, b) for a in cands for b in cands] + [(np.inf, -np.inf)]
        best_ab = min(_errors(((X[j] >= a) & (X[j] <= b)).astype(int), y[j]) for a, b in intervals)
        assert _errors(predict_interval(ab[j:j + 1], X[j])[0], y[j]) == best_ab


def test_threshold_erm_is_consistent_on_realizable_data():
    rng = np.random.default_rng(1)
    X = rng.random((200, 500))
    t = threshold_erm(X, (X >= 0.3).astype(int))
    assert np.all(_errors(predict_threshold(t, X[0]), (X[0] >= 0.3).astype(int))[:1] == 0)
    assert np.abs(t - 0.3).max() < 0.05


def test_sgd_logistic_learns_the_sign_and_is_a_pure_function_of_its_chunk():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(50, 400))
    y = (X + rng.normal(scale=0.3, size=X.shape) > 0).astype(int)
    w = sgd_logistic(X, y, eta=0.1, reg=0.01, radius=20.0)
    scores = predict_logistic(w, np.array([-2.0, 2.0]))
    assert np.all(scores[:, 0] < 0.2) and np.all(scores[:, 1] > 0.8)
    # Chunk 0 trained alone gives the same model: no information crosses chunks.
    np.testing.assert_allclose(sgd_logistic(X[:1], y[:1], eta=0.1, reg=0.01, radius=20.0), w[:1])
    assert np.all(np.linalg.norm(sgd_logistic(X, y, eta=5.0, reg=0.0, radius=1.0), axis=1) <= 1.0 + 1e-12)
