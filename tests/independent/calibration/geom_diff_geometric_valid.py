"""geometric_mechanism -- VALID VARIANT (another exact sampler, per-call only, list-friendly).

Two-sided geometric noise drawn as the difference of two i.i.d. numpy geometric variables
G1 - G2, G ~ Geometric(q = 1 - alpha) on {1, 2, ...}, alpha = exp(-epsilon/sensitivity).
P[G1 - G2 = k] = sum_j q^2 alpha^(j-1) alpha^(j+|k|-1) = q^2 alpha^|k| / (1 - alpha^2)
              = (1 - alpha)/(1 + alpha) alpha^|k|  -- exactly Fact GM2's law.
The input is read through a Python list of ints (int(round(x))) and the output rebuilt as int64.
TRUTH: same law as the spec (epsilon-DP, loss exactly epsilon on [0] vs [1] at p = 1).
"""
import math

import numpy as np


def geometric(data, *, rng, epsilon=1.0, sensitivity=1, p=None, **_):
    vals = [int(round(float(x))) for x in np.ravel(np.asarray(data, dtype=float))]
    alpha = math.exp(-float(epsilon) / float(sensitivity))
    q = 1.0 - alpha
    out = []
    for v in vals:
        g1 = int(rng.geometric(q))
        g2 = int(rng.geometric(q))
        out.append(v + g1 - g2)
    return np.array(out, dtype=np.int64)
