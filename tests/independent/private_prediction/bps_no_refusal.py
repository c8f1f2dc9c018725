"""Budgeted session whose budget check runs after the answer is released (spend, answer, then
'if spent > total: stop'), so it answers one query past the budget.

PRIVACY BUG: at eps_total = 2, eps = 1 it answers 3 queries: loss 3 eps = 3 > 2 on the all-move pair.
"""
import numpy as np


def session(data, *, rng, epsilon_total, epsilon, gamma):
    out = []
    spent = 0.0
    for a in np.asarray(data, dtype=np.float64).reshape(-1):
        spent += epsilon
        out.append(a + rng.laplace(0.0, gamma / epsilon))
        if spent > epsilon_total:
            break
    return np.asarray(out)


def _batch(data, N, *, rng, epsilon_total, epsilon, gamma):
    return np.stack([session(data, rng=rng, epsilon_total=epsilon_total, epsilon=epsilon, gamma=gamma)
                     for _ in range(N)])


session.batch = _batch
