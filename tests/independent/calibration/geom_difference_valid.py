"""VALID: two-sided geometric sampled as the difference of two i.i.d. Geometric(1-alpha) variables
(support 1, 2, ...): G1 - G2 has P[k] = (1-alpha)/(1+alpha) alpha^|k|, exactly the spec's law
(Fact GM2), alpha = exp(-epsilon/sensitivity).  A different sampler, same law, epsilon-DP.
Expected class: pass.
"""
import numpy as np


def geom(data, *, rng, epsilon, sensitivity, **_):
    f = np.asarray(data, dtype=float).astype(np.int64)
    a = np.exp(-epsilon / sensitivity)
    z = rng.geometric(1 - a, size=f.shape) - rng.geometric(1 - a, size=f.shape)
    return (f + z).astype(np.int64)
