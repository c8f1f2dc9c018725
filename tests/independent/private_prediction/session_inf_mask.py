"""Budgeted prediction session, vectorised: noise for every query, refusals by a mask.

Answers floor(epsilon_total/epsilon) queries with fresh Lap(gamma/epsilon) noise; the rest
are turned into the refusal marker +inf by a multiplicative mask.
"""
import numpy as np


def _answered(epsilon_total, epsilon):
    return int(np.floor(epsilon_total / epsilon + 1e-12))


def session(data, *, rng, epsilon_total, epsilon, gamma):
    preds = np.ravel(np.asarray(data, dtype=float))
    q = preds.size
    k = _answered(epsilon_total, epsilon)
    out = preds + rng.laplace(0.0, gamma / epsilon, size=q)
    mask = np.where(np.arange(q) < k, 1.0, np.inf)
    return out * mask


def _batch(data, n, *, rng, epsilon_total, epsilon, gamma):
    preds = np.ravel(np.asarray(data, dtype=float))
    q = preds.size
    k = _answered(epsilon_total, epsilon)
    out = preds[None, :] + rng.laplace(0.0, gamma / epsilon, size=(n, q))
    mask = np.where(np.arange(q) < k, 1.0, np.inf)
    return out * mask[None, :]


session.batch = _batch
