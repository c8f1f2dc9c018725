"""Dwork-Roth Gaussian that calibrates its own sigma, from a standard normal scaled by sigma.

Valid variant: sigma = sensitivity*sqrt(2 ln(1.25/delta))/epsilon (the spec's derived sigma),
f + sigma*Z with Z ~ N(0, I) from rng.standard_normal: the same law as f + N(0, sigma^2 I). Per call, no
batch.
"""
import math

import numpy as np


def gaussian(data, *, rng, epsilon, delta, sensitivity, **_):
    f = np.asarray(data, dtype=float)
    sigma = sensitivity * math.sqrt(2 * math.log(1.25 / delta)) / epsilon
    return f + sigma * rng.standard_normal(f.shape)
