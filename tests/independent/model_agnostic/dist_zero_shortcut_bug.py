"""A_stab with a 'conservative' shortcut: a query at distance 0 is unstable (its label can differ on a
neighbour), so it is answered bottom at once without drawing noise. This removes the release event at
dist = 0 entirely, while dist = 1 still releases with probability 0.5*exp(-eps*(Gamma-1)) -- a support
change between neighbours dist 0 / dist 1 (same label), i.e. a delta of 0.5*e^eps*delta > delta."""
import numpy as np


def a_stab(data, *, rng, epsilon, delta, beta=None):
    f, dist = int(data[0]), int(data[1])
    if dist == 0:
        return -1
    gamma = np.log(1.0 / delta) / epsilon
    return f if dist + rng.laplace(0.0, 1.0 / epsilon) > gamma else -1


def a_stab_batch(data, n, *, rng, epsilon, delta, beta=None):
    f, dist = int(data[0]), int(data[1])
    if dist == 0:
        return np.full(n, -1, dtype=np.int64)
    gamma = np.log(1.0 / delta) / epsilon
    return np.where(dist + rng.laplace(0.0, 1.0 / epsilon, n) > gamma, f, -1).astype(np.int64)


a_stab.batch = a_stab_batch
