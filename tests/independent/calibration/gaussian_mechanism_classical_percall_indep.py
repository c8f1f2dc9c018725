"""Gaussian mechanism with the classical calibration (Dwork and Roth 2014, Theorem A.1), one call
at a time: sigma = sensitivity sqrt(2 ln(1.25/delta)) / epsilon. No batch sampler."""

import math

import numpy as np


def classical_gaussian(data, *, rng, epsilon, delta, sensitivity, **_ignored):
    f = np.asarray(data, dtype=float)
    sigma = sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
    return f + rng.normal(0.0, sigma, size=f.shape)
