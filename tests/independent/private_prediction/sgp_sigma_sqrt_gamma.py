"""stable_gaussian_prediction -- BUG (privacy at gamma != 1; identical at the default gamma = 1).

What it is: the Gaussian prediction with the corrected constant sqrt(2 ln(1.25/delta))/eps
but the report's gamma scaling kept (the report's variance is gamma ln(1/delta)/eps, linear
in gamma): sigma = sqrt(gamma) sqrt(2 ln(1.25/delta))/eps instead of gamma sqrt(...)/eps.
TRUTH: gamma = 1: exactly the spec's law.  gamma = 4 (eps = 0.5, delta = 1e-5): sigma =
19.379 instead of 38.758: the release is 4/19.379 = 0.2064-GDP instead of 0.1032, exact
delta(0.5) = 6.7e-4 vs the claimed 1e-5 on f = 0 vs 4.  gamma = 0.25: twice the noise
(more private, law differs).
"""
import math

import numpy as np


def _sigma(gamma, epsilon, delta):
    return math.sqrt(gamma) * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon


def predict(data, *, rng, epsilon=0.5, delta=1e-5, gamma=1.0, **params):
    a = np.asarray(data, dtype=np.float64)
    out = a + rng.normal(0.0, _sigma(gamma, epsilon, delta), size=a.shape)
    return float(out) if out.ndim == 0 else out


def _batch(data, n, *, rng, epsilon=0.5, delta=1e-5, gamma=1.0, **params):
    a = np.asarray(data, dtype=np.float64)
    return a + rng.normal(0.0, _sigma(gamma, epsilon, delta), size=(n,) + a.shape)


predict.batch = _batch
