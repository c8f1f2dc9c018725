"""Gaussian mechanism that goes through the variance: var = sigma**2, std = sqrt(var).

Valid variant (the twin of gaussian_sigma_as_variance.py without its bug): sqrt(sigma**2) is sigma (to the
last bit for every normal float), so the noise is N(0, sigma^2 I): the spec's law. Per call, no batch.
"""
import math

import numpy as np


def gaussian(data, *, rng, sigma, **_):
    f = np.asarray(data, dtype=float)
    variance = sigma**2
    return f + rng.normal(0.0, math.sqrt(variance), size=f.shape)
