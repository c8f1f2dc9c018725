"""geometric_mechanism, VALID, written differently.

Two-sided geometric noise drawn as the difference of two i.i.d. one-sided geometric
variables (numpy's Generator.geometric, support {1, 2, ...}, success prob 1 - alpha):
P[G1 - G2 = d] = sum_k (1-a)^2 a^(k+|d|-1) a^(k-1) = (1-a)^2 a^|d| / (1 - a^2)
             = (1-a)/(1+a) a^|d|,  alpha = exp(-epsilon/sensitivity)
which is exactly the spec's law (Fact GM2). TRUTH: valid, loss = epsilon exactly.
"""
import numpy as np


def geometric(data, *, rng, epsilon, sensitivity, p):
    f = np.rint(np.asarray(data, dtype=float)).astype(np.int64).reshape(-1)
    alpha = np.exp(-float(epsilon) / float(sensitivity))
    g1 = rng.geometric(1.0 - alpha, size=f.shape).astype(np.int64)
    g2 = rng.geometric(1.0 - alpha, size=f.shape).astype(np.int64)
    return f + (g1 - g2)
