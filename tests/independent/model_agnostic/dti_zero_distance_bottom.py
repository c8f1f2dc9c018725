"""Distance to instability A_stab (seed 000 Algorithm 2) with a shortcut: distance 0 answers bottom (-1) at
once, without drawing noise (the textbook's "unstable, so refuse"); otherwise f(D) iff
dist + Lap(1/eps) > ln(1/delta)/eps, else bottom."""
import math

import numpy as np


def _release(f, dist, noise, epsilon, delta):
    gamma = math.log(1.0 / delta) / epsilon
    if dist == 0:
        return np.full(np.shape(noise), -1, dtype=np.int64)
    return np.where(dist + noise > gamma, f, -1).astype(np.int64)


def stab(data, *, rng, epsilon, delta):
    f, dist = (int(v) for v in np.asarray(data).reshape(-1)[:2])
    return int(_release(f, dist, rng.laplace(0.0, 1.0 / epsilon), epsilon, delta))


def _batch(data, N, *, rng, epsilon, delta):
    f, dist = (int(v) for v in np.asarray(data).reshape(-1)[:2])
    return _release(f, dist, rng.laplace(0.0, 1.0 / epsilon, size=N), epsilon, delta)


stab.batch = _batch
