"""The budgeted multi-query prediction interface (seed 002 Definition of a DP prediction
interface, line 19, with Lemma 4 basic composition; note ALG-9).

``PredictionSession(mechanism, data_for, epsilon_total, epsilon, rng, params)`` answers adaptive
queries x with ``mechanism(data_for(x), rng=rng, epsilon=epsilon, **params)`` (fresh coins per
answer), charges epsilon per new query and refuses (``BudgetExhausted``) once the next answer
would exceed epsilon_total: the transcript is epsilon_total-DP under any adaptive querier.
Repeated queries of the same x return the cached answer at no cost (post-processing).

``budgeted_session(data, *, rng, epsilon_total, epsilon, gamma)`` is the transcript of such a
session on q distinct queries with exact predictions ``data`` (spec budgeted_prediction_session):
a float array of length q, the answers given while the budget lasts and ``REFUSED`` (+inf) at
every refused query. The transcript has the same length whatever the budget, so an interface that
answers past its budget has the same encoding and its privacy loss is measured, not its shape.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.noise import laplace

from .stable import stable_laplace_prediction

REFUSED = np.inf   # the transcript's marker of a refused query


class BudgetExhausted(RuntimeError):
    """Raised when a new query would exceed the session's total privacy budget."""


class PredictionSession:
    def __init__(self, mechanism: Callable, data_for: Callable[[Any], Any], *, epsilon_total: float,
                 epsilon: float, rng, params: dict | None = None, cache: bool = True):
        if not 0 < epsilon <= epsilon_total:
            raise ValueError(f"need 0 < epsilon <= epsilon_total, got {epsilon!r}, {epsilon_total!r}")
        self.mechanism, self.data_for = mechanism, data_for
        self.epsilon_total, self.epsilon = float(epsilon_total), float(epsilon)
        self.rng, self.params, self.cache = rng, dict(params or {}), cache
        self.spent = 0.0
        self._answers: dict[Hashable, Any] = {}

    @property
    def remaining(self) -> float:
        return self.epsilon_total - self.spent

    def query(self, x: Hashable):
        """The answer at x: cached if asked before, else a fresh answer charged epsilon."""
        if self.cache and x in self._answers:
            return self._answers[x]
        if self.spent + self.epsilon > self.epsilon_total * (1 + 1e-12):
            raise BudgetExhausted(f"budget {self.epsilon_total:g} spent ({self.spent:g}); query {x!r} refused")
        self.spent += self.epsilon                                    # Lemma 4: basic composition
        answer = self.mechanism(self.data_for(x), rng=self.rng, epsilon=self.epsilon, **self.params)
        if self.cache:
            self._answers[x] = answer
        return answer


def _session_batch(data, n, *, rng, epsilon_total, epsilon, gamma, **_):
    a = np.atleast_1d(np.asarray(data, dtype=float))
    answered = min(a.size, int(np.floor(epsilon_total / epsilon + 1e-12)))     # Lemma 4: basic composition
    out = np.full((int(n), a.size), REFUSED)
    out[:, :answered] = a[None, :answered] + laplace(rng, gamma / epsilon, (int(n), answered))
    return out


@batched(_session_batch)
def budgeted_session(data, *, rng, epsilon_total, epsilon, gamma, **_):
    """The transcript of a :class:`PredictionSession` over the distinct queries whose exact
    predictions are ``data``: the fresh Lap(gamma/epsilon) answers given before the budget ran out,
    ``REFUSED`` at the refused queries."""
    a = np.atleast_1d(np.asarray(data, dtype=float))
    session = PredictionSession(stable_laplace_prediction, lambda t: a[t], epsilon_total=epsilon_total,
                                epsilon=epsilon, rng=rng, params={"gamma": gamma})
    out = np.full(a.size, REFUSED)
    for t in range(a.size):
        try:
            out[t] = session.query(t)
        except BudgetExhausted:
            break
    return out
