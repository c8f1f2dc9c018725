"""randomized_response, VALID, written differently.

Instead of a uniform compared with keep = e^eps/(1+e^eps), draw standard logistic noise
L (rng.logistic) and keep the bit iff L < epsilon: P[L < eps] = 1/(1 + e^-eps)
= e^eps/(1 + e^eps) exactly.  TRUTH: valid, loss = epsilon exactly on 0 vs 1.
"""
import numpy as np


def randomized_response(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0]) if np.ndim(data) else int(data)
    if rng.logistic(0.0, 1.0) < epsilon:
        return bit
    return 1 - bit
