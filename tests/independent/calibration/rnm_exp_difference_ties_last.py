"""Report noisy max with Laplace noise as Exp - Exp and ties broken towards the last index.

Valid variant: Exp(2/eps) - Exp(2/eps) is Lap(2/eps); the noisy answers are continuous, so ties have
probability 0 and the tie rule does not change the law. Per call, no batch.
"""
import numpy as np


def rnm(data, *, rng, epsilon, **_):
    q = np.asarray(data, dtype=float)
    b = 2 / epsilon
    noisy = q + rng.exponential(b, size=q.shape) - rng.exponential(b, size=q.shape)
    return int(q.size - 1 - np.argmax(noisy[::-1]))
