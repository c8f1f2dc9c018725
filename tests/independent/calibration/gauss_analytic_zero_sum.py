"""gaussian_mechanism_analytic, privacy bug: zero-sum (total-preserving) noise for p > 1.

sigma is Balle-Wang's analytic sigma (solved on Theorem 8's condition).  For a vector answer the
engineer "keeps the total unbiased and exact" (a consistency requirement): the Gaussian noise vector is
centred, z - mean(z), and rescaled by sqrt(p/(p-1)) so that every coordinate still has variance
sigma^2 (each coordinate's marginal law is exactly N(f_i, sigma^2)).  But sum(M(D)) = sum(f(D))
exactly: for f(D) = [0, 0], f(D') = [1, 0] (L2 distance 1) the event 'sum of the release < 0.5' has
probability 1 against 0: infinite loss.  At p = 1 it is the plain analytic Gaussian.
"""
import numpy as np
from scipy.optimize import brentq
from scipy.stats import norm


def analytic_sigma(epsilon, delta, sensitivity):
    def excess(log_s):
        s = np.exp(log_s)
        a = sensitivity / (2 * s)
        b = epsilon * s / sensitivity
        return norm.cdf(a - b) - np.exp(epsilon + norm.logcdf(-a - b)) - delta
    return float(np.exp(brentq(excess, -30.0, 30.0, xtol=1e-14, rtol=1e-14)))


def _noise(rng, sigma, shape):
    z = rng.standard_normal(shape)
    p = shape[-1]
    if p > 1:
        z = (z - z.mean(axis=-1, keepdims=True)) * np.sqrt(p / (p - 1))
    return sigma * z


def gauss(data, *, rng, epsilon, delta, sensitivity, p=None):
    f = np.asarray(data, dtype=float)
    return f + _noise(rng, analytic_sigma(epsilon, delta, sensitivity), f.shape)


def _batch(data, n, *, rng, epsilon, delta, sensitivity, p=None):
    f = np.asarray(data, dtype=float)
    return f[None, :] + _noise(rng, analytic_sigma(epsilon, delta, sensitivity), (n, f.shape[0]))


gauss.batch = _batch
