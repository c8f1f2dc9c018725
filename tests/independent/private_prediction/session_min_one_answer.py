"""Budgeted prediction session: fresh Laplace noise per answer, refusal after the budget.

A session that refuses its very first query is useless, so the first query is always
answered (at the per-answer cost epsilon).
"""
import math

import numpy as np


def _answered(epsilon_total, epsilon):
    return max(1, math.floor(epsilon_total / epsilon + 1e-12))


def session(data, *, rng, epsilon_total, epsilon, gamma):
    f = np.asarray(data, dtype=float).reshape(-1)
    k = min(_answered(epsilon_total, epsilon), f.size)
    out = np.full(f.size, np.inf)
    out[:k] = f[:k] + rng.laplace(0.0, gamma / epsilon, size=k)
    return out


def _batch(data, N, *, rng, epsilon_total, epsilon, gamma):
    f = np.asarray(data, dtype=float).reshape(-1)
    k = min(_answered(epsilon_total, epsilon), f.size)
    out = np.full((N, f.size), np.inf)
    out[:, :k] = f[:k] + rng.laplace(0.0, gamma / epsilon, size=(N, k))
    return out


session.batch = _batch
