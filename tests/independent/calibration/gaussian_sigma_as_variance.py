"""Gaussian mechanism that reads the parameter sigma as a variance: noise N(0, sigma), i.e. std sqrt(sigma).

Truth (privacy bug): identical to the spec at sigma = 1 (the default), more noise at sigma < 1, less at
sigma > 1. At the spec's point sigma = 2, sensitivity = 3, epsilon = 1 (p = 3, shift along one axis) the
std is sqrt(2) = 1.414 instead of 2: mu = 3/1.414 = 2.121 instead of 1.5, so the exact profile (Balle and
Wang, Theorem 8) gives delta(1) = 0.5516 against the claimed 0.3204; the claimed delta is reached only at
epsilon = 2.37 (closed form, scipy's normal CDF, root by brentq). At sigma = 2, sensitivity = 1:
delta(1) = 0.0396 against 0.0068 (epsilon 1.57 at the claimed delta).
"""
import math

import numpy as np


def gaussian(data, *, rng, sigma, **_):
    f = np.asarray(data, dtype=float)
    return f + rng.normal(0.0, math.sqrt(sigma), size=f.shape)
