"""Laplace mechanism that reads the sensitivity as an integer count: scale int(gamma)/eps.

Truth (privacy bug): identical to the spec for integer gamma (the default 1 and the point gamma = 3). At
gamma = 1.5, epsilon = 1: scale 1 instead of 1.5, so f = [0] vs f' = [1.5] has loss exactly 1.5 (closed
form) against the claimed 1. At gamma = 0.5 the scale is 0: the output is f itself, infinite loss on
[0] vs [0.5].
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, int(gamma) / epsilon, size=f.shape)
