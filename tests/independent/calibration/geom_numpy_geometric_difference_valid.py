"""VALID (expected class: pass, exit 0). geometric_mechanism.

Two-sided geometric noise drawn as the difference of two i.i.d. numpy geometrics:
G1, G2 ~ rng.geometric(1 - alpha) on {1, 2, ...}, P[G = k] = (1-alpha) alpha^(k-1).
Z = G1 - G2 has P[Z = k] = (1-alpha)^2 sum_j alpha^(j-1) alpha^(j+|k|-1)
     = (1-alpha)^2 alpha^|k| / (1 - alpha^2) = (1-alpha)/(1+alpha) alpha^|k|,
exactly the spec's law (Fact GM2) with alpha = exp(-epsilon/sensitivity).
"""
import numpy as np


def geometric(data, *, rng, epsilon, sensitivity, **_):
    f = np.rint(np.asarray(data, dtype=float).reshape(-1)).astype(np.int64)
    alpha = np.exp(-epsilon / sensitivity)
    g1 = rng.geometric(1.0 - alpha, size=f.shape).astype(np.int64)
    g2 = rng.geometric(1.0 - alpha, size=f.shape).astype(np.int64)
    return f + g1 - g2


def _batch(data, n, *, rng, epsilon, sensitivity, **_):
    f = np.rint(np.asarray(data, dtype=float).reshape(-1)).astype(np.int64)
    alpha = np.exp(-epsilon / sensitivity)
    g1 = rng.geometric(1.0 - alpha, size=(n, f.size)).astype(np.int64)
    g2 = rng.geometric(1.0 - alpha, size=(n, f.size)).astype(np.int64)
    return f[None, :] + g1 - g2


geometric.batch = _batch
