"""Budgeted prediction session: k = epsilon_total/epsilon answers with fresh Lap(gamma/epsilon), then +inf.

k is taken with round(), not int(): 0.3/0.1 = 2.9999999999999996 in floating point, and
int() would silently drop the third answer the budget pays for.
"""
import numpy as np


def _answered(epsilon_total, epsilon):
    return int(round(epsilon_total / epsilon))


def session(data, *, rng, epsilon_total, epsilon, gamma):
    preds = np.ravel(np.asarray(data, dtype=float))
    k = min(_answered(epsilon_total, epsilon), preds.size)
    out = np.full(preds.size, np.inf)
    out[:k] = preds[:k] + rng.laplace(0.0, gamma / epsilon, size=k)
    return out


def _batch(data, n, *, rng, epsilon_total, epsilon, gamma):
    preds = np.ravel(np.asarray(data, dtype=float))
    k = min(_answered(epsilon_total, epsilon), preds.size)
    out = np.full((n, preds.size), np.inf)
    out[:, :k] = preds[None, :k] + rng.laplace(0.0, gamma / epsilon, size=(n, k))
    return out


session.batch = _batch
