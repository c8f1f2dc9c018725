"""A_stab with '>=' instead of '>' and the Laplace variable as an Exp difference.

VALID VARIANT: the boundary event has probability 0 for a continuous noise, so the law is the same.
"""
import math

import numpy as np


def stab(data, *, rng, epsilon, delta):
    f, dist = (int(v) for v in np.asarray(data).reshape(-1)[:2])
    noise = rng.exponential(1.0 / epsilon) - rng.exponential(1.0 / epsilon)
    return f if dist + noise >= math.log(1.0 / delta) / epsilon else -1


def _batch(data, N, *, rng, epsilon, delta):
    f, dist = (int(v) for v in np.asarray(data).reshape(-1)[:2])
    noise = rng.exponential(1.0 / epsilon, size=N) - rng.exponential(1.0 / epsilon, size=N)
    return np.where(dist + noise >= math.log(1.0 / delta) / epsilon, f, -1).astype(np.int64)


stab.batch = _batch
