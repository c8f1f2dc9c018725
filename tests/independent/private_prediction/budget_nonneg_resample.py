"""Budgeted prediction session (paper 002, DP prediction interface + Lemma 4).

Predictions are rates/probabilities, so a negative answer is meaningless to the caller:
a negative noisy answer is thrown away and the noise redrawn (rejection) before release.
Each released answer is billed epsilon; refusal (+inf) once the budget is spent.
"""
import numpy as np


def _nonneg_laplace(f, b, size, rng):
    """Draw f + Lap(b), redrawn until >= 0 (vectorised rejection; exact shortcut for f < 0)."""
    out = np.empty(size)
    if f < 0:
        # conditional of Lap given L >= -f > 0 is -f + Exp(b) (memoryless): answer ~ Exp(b)
        return rng.exponential(b, size=size)
    todo = np.arange(size)
    while todo.size:
        a = f + rng.laplace(0.0, b, size=todo.size)
        ok = a >= 0
        out[todo[ok]] = a[ok]
        todo = todo[~ok]
    return out


def session(data, *, rng, epsilon_total, epsilon, gamma, **_):
    f = np.atleast_1d(np.asarray(data, dtype=float))
    b = gamma / epsilon
    out = np.full(f.shape[0], np.inf)
    spent = 0.0
    for t in range(f.shape[0]):
        if spent + epsilon > epsilon_total + 1e-12:
            break
        out[t] = _nonneg_laplace(f[t], b, 1, rng)[0]
        spent += epsilon
    return out


def _batch(data, n, *, rng, epsilon_total, epsilon, gamma, **_):
    f = np.atleast_1d(np.asarray(data, dtype=float))
    b = gamma / epsilon
    k = int(np.floor(epsilon_total / epsilon + 1e-12))
    out = np.full((n, f.shape[0]), np.inf)
    for t in range(min(k, f.shape[0])):
        out[:, t] = _nonneg_laplace(f[t], b, n, rng)
    return out


session.batch = _batch
