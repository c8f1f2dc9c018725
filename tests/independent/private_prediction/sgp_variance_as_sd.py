"""Gaussian prediction: sigma_G^2 passed as the standard deviation (a variance used as a scale)."""
import math

import numpy as np


def stable_gaussian(data, *, rng, epsilon, delta, gamma, **_ignored):
    var = (gamma * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon) ** 2
    x = np.asarray(data, dtype=float)
    out = x + rng.normal(0.0, var, size=x.shape)
    return float(out) if out.ndim == 0 else out
