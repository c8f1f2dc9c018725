"""Laplace mechanism by inverse-CDF sampling, one coordinate at a time, no batch sampler.

Valid variant: a random sign times -b*log(U), U uniform on (0, 1], is Lap(b). Written as the
plain loop an implementer would write first (no .batch: the checker must cope with the slow path).
"""
import math

import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    b = gamma / epsilon
    out = np.empty_like(f)
    for i, v in enumerate(f):
        u = 1.0 - rng.random()          # in (0, 1]
        mag = -b * math.log(u)
        sign = 1.0 if rng.random() < 0.5 else -1.0
        out[i] = v + sign * mag
    return out
