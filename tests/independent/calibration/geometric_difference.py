"""Geometric mechanism: the two-sided geometric noise as the difference of two one-sided geometric counts.

Valid variant: if G1, G2 are i.i.d. with P[G = k] = (1 - alpha) alpha^k (k >= 0), then
P[G1 - G2 = k] = (1 - alpha)/(1 + alpha) alpha^|k|, the spec's law (Fact GM2), alpha = exp(-eps/sens).
numpy's geometric counts trials (support 1, 2, ...), hence the -1. Per call, no batch.
"""
import math

import numpy as np


def geometric(data, *, rng, epsilon, sensitivity, **_):
    f = np.rint(np.asarray(data, dtype=float)).astype(np.int64)
    alpha = math.exp(-epsilon / sensitivity)
    g1 = rng.geometric(1 - alpha, size=f.shape) - 1
    g2 = rng.geometric(1 - alpha, size=f.shape) - 1
    return f + g1 - g2
