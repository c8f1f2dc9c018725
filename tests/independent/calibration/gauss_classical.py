"""Gaussian mechanism calibrated by the classical bound (Dwork and Roth, Theorem A.1):
sigma = Delta * sqrt(2 ln(1.25/delta)) / epsilon.  Closed form, no root finding."""
import math

import numpy as np


def _sigma(epsilon, delta, sensitivity):
    return sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon


def gaussian(data, *, rng, epsilon, delta, sensitivity):
    f = np.ravel(np.asarray(data, dtype=float))
    return f + rng.normal(0.0, _sigma(epsilon, delta, sensitivity), size=f.size)


def _batch(data, n, *, rng, epsilon, delta, sensitivity):
    f = np.ravel(np.asarray(data, dtype=float))
    return f[None, :] + rng.normal(0.0, _sigma(epsilon, delta, sensitivity), size=(n, f.size))


gaussian.batch = _batch
