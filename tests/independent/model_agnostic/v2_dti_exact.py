"""A_stab (distance to instability) with an exact comparison dist + Lap(1/eps) > Gamma.

The sum is never rounded: math.fsum of [dist, noise, -Gamma] is the correctly rounded exact sum, whose
sign is exact; for distances beyond 2**53 (not exactly representable as floats) fractions.Fraction is
used. Release f(D) iff the exact dist + noise exceeds Gamma, else -1. Per call only.
"""
import math
from fractions import Fraction

import numpy as np

_EXACT_FLOAT = 2 ** 53


def dti(data, *, rng, epsilon, delta, **_unused):
    arr = np.asarray(data).reshape(-1)
    label = int(arr[0])
    dist = int(arr[1])
    gamma_thr = math.log(1.0 / delta) / epsilon
    noise = float(rng.laplace(0.0, 1.0 / epsilon))
    if abs(dist) < _EXACT_FLOAT:
        released = math.fsum([float(dist), noise, -gamma_thr]) > 0.0
    else:
        released = Fraction(dist) + Fraction(noise) > Fraction(gamma_thr)
    return label if released else -1
