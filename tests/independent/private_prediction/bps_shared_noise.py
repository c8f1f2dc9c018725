"""Budgeted session that draws the Laplace noise once per session and reuses it for every answer.

PRIVACY BUG: answer differences are exact. Predictions (0, 0, 0) vs (gamma, 0, 0) (each moves by
<= gamma) give a_1 - a_2 = 0 vs gamma: infinite loss. On the all-move pair the loss is only eps.
"""
import numpy as np


def session(data, *, rng, epsilon_total, epsilon, gamma):
    a = np.asarray(data, dtype=np.float64).reshape(-1)
    k = min(a.size, int(np.floor(epsilon_total / epsilon + 1e-12)))
    return a[:k] + rng.laplace(0.0, gamma / epsilon)


def _batch(data, N, *, rng, epsilon_total, epsilon, gamma):
    a = np.asarray(data, dtype=np.float64).reshape(-1)
    k = min(a.size, int(np.floor(epsilon_total / epsilon + 1e-12)))
    return a[None, :k] + rng.laplace(0.0, gamma / epsilon, size=(N, 1))


session.batch = _batch
