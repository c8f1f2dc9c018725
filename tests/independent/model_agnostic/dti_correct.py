"""Distance to instability A_stab (seed 000 Algorithm 2): release f(D) iff dist + Lap(1/eps) > ln(1/delta)/eps,
else bottom (-1)."""
import math

import numpy as np


def stab(data, *, rng, epsilon, delta):
    f, dist = (int(v) for v in np.asarray(data).reshape(-1)[:2])
    gamma = math.log(1.0 / delta) / epsilon
    return f if dist + rng.laplace(0.0, 1.0 / epsilon) > gamma else -1


def _batch(data, N, *, rng, epsilon, delta):
    f, dist = (int(v) for v in np.asarray(data).reshape(-1)[:2])
    gamma = math.log(1.0 / delta) / epsilon
    return np.where(dist + rng.laplace(0.0, 1.0 / epsilon, size=N) > gamma, f, -1).astype(np.int64)


stab.batch = _batch
