"""geometric_mechanism -- BUG (one noise for the whole vector in the vectorised path).

Two-sided geometric noise (exact law per coordinate) but the vector path draws a single noise
value and broadcasts it ('f + z') instead of size=p draws. p = 1 is exactly the spec's law.
TRUTH: for p >= 2, out[0] - out[1] = f[0] - f[1] exactly, so f = (0, 0) vs f' = (1, 0)
(L1 distance 1 <= sensitivity) give out0 - out1 = 0 vs 1 with probability 1: infinite loss
(delta needed 1). Each coordinate's marginal is still GM2's law.
"""
import numpy as np


def _two_sided(rng, alpha, size=None):
    q = 1.0 - alpha
    return rng.geometric(q, size=size) - rng.geometric(q, size=size)


def geometric(data, *, rng, epsilon=1.0, sensitivity=1, **_):
    f = np.rint(np.asarray(data, dtype=np.float64).ravel()).astype(np.int64)
    alpha = np.exp(-float(epsilon) / float(sensitivity))
    if f.size == 1:
        return f + _two_sided(rng, alpha, size=1)
    z = _two_sided(rng, alpha)            # BUG: should be size=f.size
    return (f + z).astype(np.int64)
