"""Geometric (discrete Laplace) mechanism: noise = G1 - G2 with G1, G2 i.i.d. rng.geometric(1 - alpha)
(support 1, 2, ...), alpha = exp(-epsilon/sensitivity); the difference of two i.i.d. geometrics is the
two-sided geometric law P[Z = k] = (1 - alpha)/(1 + alpha) alpha^|k|. The integer input is converted with
np.rint; the output is int32 (exact for these values). The batch sampler draws G2 before G1. Law: the spec's."""
import math

import numpy as np


def geometric(data, *, rng, epsilon, sensitivity):
    f = np.rint(np.asarray(data, dtype=np.float64).reshape(-1)).astype(np.int32)
    q = 1.0 - math.exp(-epsilon / sensitivity)
    g1 = rng.geometric(q, size=f.size)
    g2 = rng.geometric(q, size=f.size)
    return (f + (g1 - g2)).astype(np.int32)


def _batch(data, N, *, rng, epsilon, sensitivity):
    f = np.rint(np.asarray(data, dtype=np.float64).reshape(-1)).astype(np.int32)
    q = 1.0 - math.exp(-epsilon / sensitivity)
    g2 = rng.geometric(q, size=(N, f.size))
    g1 = rng.geometric(q, size=(N, f.size))
    return (f[None, :] + (g1 - g2)).astype(np.int32)


geometric.batch = _batch
