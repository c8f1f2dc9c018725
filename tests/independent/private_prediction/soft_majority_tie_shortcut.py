"""Soft-majority private prediction (Theorem 1, corrected) with a 'free tie' shortcut.

Pr[1] = sigma(epsilon*nu/2), nu = c1 - c0. When the probability is exactly 1/2 (a tied vote) the
coin is 'fair anyway', so the code saves the draw and answers with the conventional tie rule
int(c1 >= c0) = 1.
BUG: on a tie the answer is deterministic (Pr[0 | nu = 0] = 0), while Pr[0 | nu = 2] =
sigma(-epsilon) > 0: infinite loss. Ties need an even number r of teachers: r = 23 at the default
epsilon = 1 (never a tie), r = ceil(6 ln 40 / 2) = 12 at epsilon = 2.
"""
import math

import numpy as np


def _nu(data, alpha, epsilon):
    if isinstance(data, dict):
        X = np.asarray(data["X"], dtype=float)
        y = np.asarray(data["y"])
        xq = np.atleast_1d(np.asarray(data["x"], dtype=float))
        r = math.ceil(6.0 * math.log(4.0 / alpha) / epsilon)
        m = X.size // r
        t = np.full(r, np.inf)
        for j in range(r):
            pos = X[j * m:(j + 1) * m][y[j * m:(j + 1) * m] == 1]
            if pos.size:
                t[j] = pos.min()
        c1 = (xq[:, None] >= t[None, :]).sum(axis=1)
        return (2 * c1 - r).astype(float), np.ndim(data["x"]) == 0
    c = np.asarray(data)
    return np.array([float(c[1]) - float(c[0])]), True


def _bits(nu, epsilon, u):
    z = epsilon * nu / 2.0
    p = np.where(z >= 0, 1.0 / (1.0 + np.exp(-np.abs(z))), np.exp(-np.abs(z)) / (1.0 + np.exp(-np.abs(z))))
    return np.where(p == 0.5, 1, u < p).astype(np.int8)


def soft_majority(data, *, rng, epsilon, alpha=0.1, **_):
    nu, scalar = _nu(data, alpha, epsilon)
    bits = _bits(nu, epsilon, rng.random(nu.shape))
    return int(bits[0]) if scalar else bits


def _batch(data, n, *, rng, epsilon, alpha=0.1, **_):
    nu, scalar = _nu(data, alpha, epsilon)
    bits = _bits(nu[None, :], epsilon, rng.random((n, nu.size)))
    return bits[:, 0] if scalar else bits


soft_majority.batch = _batch
