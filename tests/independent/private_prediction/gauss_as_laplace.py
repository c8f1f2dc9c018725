"""Gaussian prediction (stable_gaussian_prediction) -- 'variance-matched' noise.

Our serving stack only ships a Laplace sampler, so the Gaussian noise N(0, sigma_G^2) is replaced by
Laplace noise of the same variance, b = sigma_G/sqrt(2) (Var Lap(b) = 2 b^2 = sigma_G^2).
(Law differs from the spec. Privacy: Lap(b) with sensitivity gamma is (gamma/b)-DP = 0.146-DP at the
defaults, so (0.5, 1e-5)-DP holds.)
"""
import numpy as np


def _b(epsilon, delta, gamma):
    return gamma * np.sqrt(2.0 * np.log(1.25 / delta)) / epsilon / np.sqrt(2.0)


def predict(data, *, rng, epsilon, delta, gamma, L_l=None, sigma=None, k=None):
    a = np.asarray(data, dtype=float)
    out = a + rng.laplace(0.0, _b(epsilon, delta, gamma), size=a.shape)
    return float(out) if out.ndim == 0 else out


def _batch(data, n, *, rng, epsilon, delta, gamma, L_l=None, sigma=None, k=None):
    a = np.asarray(data, dtype=float)
    return a + rng.laplace(0.0, _b(epsilon, delta, gamma), size=(n,) + a.shape)


predict.batch = _batch
