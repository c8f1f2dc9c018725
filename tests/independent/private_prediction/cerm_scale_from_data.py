"""Convex-ERM private prediction whose stability constant uses the largest feature norm OBSERVED in the
sample, L_f_hat = max_i |x_i|, instead of the public bound L_f ('tighter noise').

PRIVACY BUG: the noise scale depends on the private data. Linear loss, lam = 0.5, n = 4, c_gamma = 4,
query x = (1, 0): D has every row (0, 0.1) (label +1), so gamma = 4 * 0.01/(0.5*4) = 0.02 and the
prediction is 0; D' replaces record 1 by ((1, 0), +1): gamma = 2, prediction 0.5. Output density at 0:
1/(2*0.02) = 25 on D against e^(-0.25)/4 = 0.195 on D': loss ln(128) = 4.85 > eps = 1.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cerm_correct import _mean, _noisy


def _gamma(X, lam, L_l, c_gamma):
    L_hat = float(np.max(np.linalg.norm(X, axis=1))) if X.size else 0.0
    return max(c_gamma * L_hat ** 2 * L_l / (lam * X.shape[0]), 1e-12)


def predict(data, *, rng, epsilon, lam, R, L_f, L_l, c_gamma, loss):
    mu, X = _mean(data, lam, R, loss)
    return _noisy(mu, _gamma(X, lam, L_l, c_gamma) / epsilon, rng)


def _batch(data, N, *, rng, epsilon, lam, R, L_f, L_l, c_gamma, loss):
    mu, X = _mean(data, lam, R, loss)
    return _noisy(mu, _gamma(X, lam, L_l, c_gamma) / epsilon, rng, N)


predict.batch = _batch
