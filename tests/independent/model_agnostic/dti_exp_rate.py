"""A_stab (000 Algorithm 2): release f(D) iff dist_f(D) + Lap(1/epsilon) > Gamma = log(1/delta)/epsilon.

Laplace noise as the difference of two exponential variables of rate epsilon, which keeps the
noise exactly symmetric and avoids the log(0) edge of inverse-CDF samplers.
"""
import math

import numpy as np


def _lap(rng, epsilon, size=None):
    # Lap(1/epsilon) = Exp(rate epsilon) - Exp(rate epsilon)
    return rng.exponential(epsilon, size) - rng.exponential(epsilon, size)


def dti_rate(data, *, rng, epsilon, delta, **_):
    label, dist = int(data[0]), float(data[1])
    gamma_thr = math.log(1.0 / delta) / epsilon
    return label if dist + _lap(rng, epsilon) > gamma_thr else -1


def _batch(data, n, *, rng, epsilon, delta, **_):
    label, dist = int(data[0]), float(data[1])
    gamma_thr = math.log(1.0 / delta) / epsilon
    rel = dist + _lap(rng, epsilon, n) > gamma_thr
    return np.where(rel, label, -1).astype(np.int64)


dti_rate.batch = _batch
