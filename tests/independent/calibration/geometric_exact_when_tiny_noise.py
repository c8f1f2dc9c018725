"""Geometric mechanism that skips the noise when it would almost surely be zero (P[Z != 0] < 1e-4).

The author's reasoning: at alpha = exp(-eps/sens) the noise is non-zero with probability 2 alpha/(1 + alpha);
below 1e-4 'it is zero anyway', so return f unchanged. That happens for eps/sens > ln(2e4) = 9.90.

Truth (privacy bug): identical to the spec for eps/sens <= 9.90 (every audit point of the spec). At
epsilon = 10, sensitivity = 1 (alpha = 4.54e-5, P[Z != 0] = 9.08e-5 < 1e-4): f = [0] vs f' = [1] give the
outputs 0 and 1 with probability 1 each: infinite loss against the claimed 10 (the spec's mechanism has
loss exactly 10 there).
"""
import math

import numpy as np


def geometric(data, *, rng, epsilon, sensitivity, **_):
    f = np.rint(np.asarray(data, dtype=float)).astype(np.int64)
    alpha = math.exp(-epsilon / sensitivity)
    if 2 * alpha / (1 + alpha) < 1e-4:
        return f
    # two-sided geometric as the difference of two geometric counts of failures
    g1 = rng.geometric(1 - alpha, size=f.shape) - 1
    g2 = rng.geometric(1 - alpha, size=f.shape) - 1
    return f + g1 - g2
