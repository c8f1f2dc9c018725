"""stable_gaussian_prediction -- BUG (privacy of the q-query release; every marginal exact).

What it is: A(S, x) + N(0, sigma_G^2) per query, the q noises made as np.diff of q+1
N(0, sigma_G^2/2) draws ("the difference of two N(0, s^2/2) is N(0, s^2)").  Each answer's
noise is exactly N(0, sigma_G^2) (single query: the spec's law, (gamma/sigma_G)-GDP), but
consecutive answers share a draw: correlation -1/2.
TRUTH: q = 2, predictions (0, 0) vs (gamma, gamma): the pair is mu-GDP with
mu = sqrt(v' Sigma^-1 v) = 2 gamma/sigma_G = 0.2064 (defaults) instead of
sqrt(2) gamma/sigma_G = 0.1460 for two independent answers (GDP composition, the
two-query analogue of Lemma 4); the sum of the two answers is f0 + f1 + (g2 - g0), sd
sigma_G (MC 2e6: 0.9993 sigma_G; marginal sds 1.0006, 1.0004; corr -0.501), so the sum
alone moves by 2 gamma against noise sd sigma_G: mu = 0.2064 > 0.1460.  (eps = 0.5:
delta(0.5) = 6.7e-4 for the pair against 1.5e-5 for two independent answers.)
"""
import math

import numpy as np


def predict(data, *, rng, epsilon=0.5, delta=1e-5, gamma=1.0, **params):
    sigma = gamma * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
    a = np.asarray(data, dtype=np.float64)
    if a.ndim == 0:
        g = rng.normal(0.0, sigma / math.sqrt(2.0), size=2)
        return float(a + (g[1] - g[0]))
    g = rng.normal(0.0, sigma / math.sqrt(2.0), size=a.shape[0] + 1)
    return a + np.diff(g)


def _batch(data, n, *, rng, epsilon=0.5, delta=1e-5, gamma=1.0, **params):
    sigma = gamma * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
    a = np.asarray(data, dtype=np.float64)
    if a.ndim == 0:
        g = rng.normal(0.0, sigma / math.sqrt(2.0), size=(n, 2))
        return a + (g[:, 1] - g[:, 0])
    g = rng.normal(0.0, sigma / math.sqrt(2.0), size=(n, a.shape[0] + 1))
    return a[None, :] + np.diff(g, axis=1)


predict.batch = _batch
