"""Laplace mechanism with harmless state: a functools.cache of the scale and a process-wide call counter.

Valid variant: the scale gamma/eps is memoised per (gamma, epsilon) (public parameters only) and a counter of
calls is kept for logging; neither touches the noise, which is fresh f + Lap(gamma/eps) from rng on every
call. Warm and fresh processes have the same law. Per call, no batch.
"""
from functools import cache

import numpy as np

CALLS = [0]


@cache
def _scale(gamma, epsilon):
    return gamma / epsilon


def laplace(data, *, rng, epsilon, gamma, **_):
    CALLS[0] += 1
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, _scale(gamma, epsilon), size=f.shape)
