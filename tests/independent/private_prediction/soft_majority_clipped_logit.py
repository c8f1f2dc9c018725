"""Soft-majority private prediction (Theorem 1, corrected) with the logit clipped to [-5, 5].

"For numerical safety" the logit epsilon*nu/2 is clipped to [-5, 5] before the logistic.
Clipping is 1-Lipschitz, so a vote move (|delta nu| <= 2) still moves the logit by <= epsilon: the
claim holds, but the law differs from the spec whenever |epsilon*nu/2| > 5 (e.g. nu = -23:
Pr[1] = sigma(-5) = 6.69e-3 instead of sigma(-11.5) = 1.01e-5).
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


def _p(nu, epsilon):
    z = np.clip(epsilon * nu / 2.0, -5.0, 5.0)
    return 1.0 / (1.0 + np.exp(-z))


def soft_majority(data, *, rng, epsilon, alpha=0.1, **_):
    nu, scalar = _nu(data, alpha, epsilon)
    bits = (rng.random(nu.shape) < _p(nu, epsilon)).astype(np.int8)
    return int(bits[0]) if scalar else bits


def _batch(data, n, *, rng, epsilon, alpha=0.1, **_):
    nu, scalar = _nu(data, alpha, epsilon)
    bits = (rng.random((n, nu.size)) < _p(nu, epsilon)).astype(np.int8)
    return bits[:, 0] if scalar else bits


soft_majority.batch = _batch
