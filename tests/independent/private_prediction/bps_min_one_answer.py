"""Budgeted prediction session (paper 002, DP prediction interface + Lemma 4) with a
"minimum service" rule.

The session answers floor(epsilon_total / epsilon) queries with fresh Lap(gamma/epsilon) noise
and refuses (+inf) afterwards -- except that it always answers at least the first query, so a
client whose per-answer cost exceeds the whole budget still gets one prediction. With
epsilon > epsilon_total that single answer costs epsilon, more than the session's claim
epsilon_total. At the defaults (epsilon_total = 2, epsilon = 1) the rule never fires.
"""
import math

import numpy as np


def _n_answered(epsilon_total, epsilon):
    return max(1, int(math.floor(epsilon_total / epsilon + 1e-12)))


def session(data, *, rng, epsilon_total, epsilon, gamma, **_):
    a = np.asarray(data, dtype=float).reshape(-1)
    k = min(_n_answered(epsilon_total, epsilon), a.size)
    out = np.full(a.shape, np.inf)
    out[:k] = a[:k] + rng.laplace(0.0, gamma / epsilon, size=k)
    return out


def _batch(data, n, *, rng, epsilon_total, epsilon, gamma, **_):
    a = np.asarray(data, dtype=float).reshape(-1)
    k = min(_n_answered(epsilon_total, epsilon), a.size)
    out = np.full((n, a.size), np.inf)
    out[:, :k] = a[:k] + rng.laplace(0.0, gamma / epsilon, size=(n, k))
    return out


session.batch = _batch
