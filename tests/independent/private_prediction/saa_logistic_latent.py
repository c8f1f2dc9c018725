"""Subsample-and-aggregate soft majority (paper 002, Theorem 1, corrected), sampled through a
latent logistic variable instead of a Bernoulli(p) coin.

Label = 1[epsilon nu / 2 + L > 0], L = ln(U / (1 - U)) standard logistic (U = 1 - rng.random()
in (0, 1]): P[label = 1] = P[L > -epsilon nu/2] = 1/(1 + exp(-epsilon nu/2)), the spec's soft
majority, with no exp() to overflow. Counts form: data = [c_0, c_1], nu = c_1 - c_0.
Dataset form: data = {"X", "y", "x"}: r = ceil(6 ln(4/alpha)/epsilon) teachers on positional
blocks of m = n // r records, each the threshold learner A_min (t = min{x_i : y_i = 1}, +inf if
none; vote 1[x >= t]); every query gets its own fresh logistic variable.
"""
import math

import numpy as np


def _latent(rng, size):
    u = 1.0 - rng.random(size)
    with np.errstate(divide="ignore"):
        return np.log(u) - np.log1p(-u)


def _nu(data, epsilon, alpha):
    if isinstance(data, dict):
        X = np.asarray(data["X"], dtype=float).reshape(-1)
        y = np.asarray(data["y"]).reshape(-1)
        x = np.asarray(data["x"], dtype=float)
        r = math.ceil(6.0 * math.log(4.0 / alpha) / epsilon)
        m = X.size // r
        t = np.full(r, np.inf)
        for j in range(r):
            xb, yb = X[j * m:(j + 1) * m], y[j * m:(j + 1) * m]
            pos = xb[yb == 1]
            if pos.size:
                t[j] = pos.min()
        c1 = (x.reshape(-1)[:, None] >= t[None, :]).sum(axis=1)
        nu = 2 * c1 - r
        return nu.astype(float), x.ndim == 0
    c = np.asarray(data).reshape(-1)
    return np.array([float(c[1] - c[0])]), True


def soft_majority(data, *, rng, epsilon, alpha=0.1, **_):
    nu, scalar = _nu(data, epsilon, alpha)
    lab = (epsilon * nu / 2.0 + _latent(rng, nu.shape) > 0)
    return int(lab[0]) if scalar else lab.astype(np.int8)


def _batch(data, n, *, rng, epsilon, alpha=0.1, **_):
    nu, scalar = _nu(data, epsilon, alpha)
    lab = (epsilon * nu[None, :] / 2.0 + _latent(rng, (n, nu.size)) > 0).astype(np.int8)
    return lab[:, 0] if scalar else lab


soft_majority.batch = _batch
