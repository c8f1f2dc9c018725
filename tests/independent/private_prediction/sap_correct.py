"""Subsample-and-aggregate private prediction with the soft majority (seed 002 Theorem 1 proof):
Pr[1] = exp(eps*nu/2)/(1 + exp(eps*nu/2)), nu = c_1 - c_0.

Votes form: data = [c_0, c_1]. Dataset form: data = {X, y, x}: r = ceil(6 ln(4/alpha)/eps) teachers on
the first r*m records (m = n // r), positional blocks, each the threshold learner t = min{X_i : y_i = 1}
(+inf if none), voting 1 iff x >= t; every query answered with its own coin."""
import math

import numpy as np


def _p1(nu, epsilon):
    z = 0.5 * epsilon * np.asarray(nu, dtype=np.float64)
    return 0.5 * (1.0 + np.tanh(0.5 * z))          # stable logistic(z)


def _teacher_thresholds(X, y, r):
    n = X.size
    m = n // r
    t = np.full(r, np.inf)
    for j in range(r):
        xb, yb = X[j * m:(j + 1) * m], y[j * m:(j + 1) * m]
        pos = xb[yb == 1]
        if pos.size:
            t[j] = pos.min()
    return t


def _nu(data, epsilon, alpha):
    if isinstance(data, dict):
        r = math.ceil(6.0 * math.log(4.0 / alpha) / epsilon)
        X = np.asarray(data["X"], dtype=np.float64).reshape(-1)
        y = np.asarray(data["y"]).reshape(-1).astype(np.int64)
        t = _teacher_thresholds(X, y, r)
        q = np.asarray(data["x"], dtype=np.float64)
        c1 = (q.reshape(-1)[:, None] >= t[None, :]).sum(axis=1)
        nu = 2 * c1 - r
        return nu, q.ndim == 0
    c = np.asarray(data).reshape(-1)
    return np.array([int(c[1]) - int(c[0])]), True


def predict(data, *, rng, epsilon, alpha):
    nu, scalar = _nu(data, epsilon, alpha)
    p = _p1(nu, epsilon)
    out = (rng.random(p.shape) < p).astype(np.int8)
    return int(out[0]) if scalar else out


def _batch(data, N, *, rng, epsilon, alpha):
    nu, scalar = _nu(data, epsilon, alpha)
    p = _p1(nu, epsilon)
    out = (rng.random((N, p.size)) < p[None, :]).astype(np.int8)
    return out[:, 0] if scalar else out


predict.batch = _batch
