"""Dwork-Roth Gaussian that calibrates its own sigma and forgets the sensitivity in it.

The code computes the noise multiplier c/epsilon, c = sqrt(2 ln(1.25/delta)) (the std for a sensitivity-1
query, i.e. in units of the sensitivity), and uses it as the std in the units of f: std = sigma/sensitivity
where the spec has sigma = sensitivity*c/epsilon.

Truth (privacy bug): identical to the spec at sensitivity 1 (the default, and the point epsilon = 0.25,
delta = 1e-6); more noise at sensitivity < 1; less at sensitivity > 1. At the spec's point epsilon = 0.5,
delta = 1e-5, sensitivity = 3 (p = 3): std 9.69 instead of 29.07, mu = 0.310; the exact profile (Balle and
Wang, Theorem 8, closed form) gives delta(0.5) = 8.84e-3 against the claimed 1e-5, and delta = 1e-5 is met
only at epsilon = 1.17.
"""
import math

import numpy as np


def gaussian(data, *, rng, epsilon, delta, **_):
    f = np.asarray(data, dtype=float)
    std = math.sqrt(2 * math.log(1.25 / delta)) / epsilon
    return f + rng.normal(0.0, std, size=f.shape)
