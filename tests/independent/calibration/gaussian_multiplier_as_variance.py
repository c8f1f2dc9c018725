"""Gaussian mechanism that works in units of the sensitivity and reads the noise multiplier as a variance.

z = sigma/sensitivity is the noise multiplier (std in units of the sensitivity); the code draws
N(0, z) (z taken as a variance) and scales by the sensitivity: std = sensitivity*sqrt(z) = sqrt(sigma*sens).

Truth (privacy bug): identical to the spec whenever sigma = sensitivity (the default 1/1 and the point
0.5/0.5), more noise when sigma < sensitivity (the point sigma = 2, sensitivity = 3: std 2.449 > 2), less
when sigma > sensitivity. At sigma = 4, sensitivity = 1, epsilon = 1 (p = 1): std 2 instead of 4, mu = 0.5
instead of 0.25; exact delta(1) = 6.83e-3 against the claimed 2.92e-6 (Balle and Wang, Theorem 8, closed
form), and the claimed delta is reached only at epsilon = 2.14.
"""
import math

import numpy as np


def gaussian(data, *, rng, sigma, sensitivity, **_):
    f = np.asarray(data, dtype=float)
    z = sigma / sensitivity
    return f + sensitivity * rng.normal(0.0, math.sqrt(z), size=f.shape)
