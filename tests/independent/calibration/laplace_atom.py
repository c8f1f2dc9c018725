"""Laplace mechanism that returns the exact answer with probability 1e-3.

A 'debug sample' path: one call in a thousand skips the noise.

Truth (privacy bug): the claim is pure (delta = 0). f = [0] vs f' = [1] (gamma = 1, epsilon = 1): the
event {output = 0} has probability >= 1e-3 on D (the atom) and 0 on D' (there the output 0 needs the
continuous noise to hit -1 exactly): infinite loss. Outside the atom the law is f + Lap(gamma/eps).
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float)
    noise = rng.laplace(0.0, gamma / epsilon, size=f.shape)
    if rng.random() < 1e-3:
        return f.copy()
    return f + noise
