"""Report noisy max whose per-call function uses Lap(1/eps), behind a correct Lap(2/eps) batch sampler.

Truth (privacy bug, in the code users call): per call, argmax(q + Lap(1/eps)). At epsilon = 1,
q = [0, 5, 5, 5, 5] vs q' = [1, 4, 4, 4, 4] (every answer moves by 1): P[0] = 0.001376 vs 0.010165, loss
2.000 > 1 (1-D quadrature of f(x - q_0) prod_j F(x - q_j) on 8e5 points). The batch's law (Lap(2/eps)) has
loss 0.9998 on the same pair.
"""
import numpy as np


def rnm(data, *, rng, epsilon, **_):
    q = np.asarray(data, dtype=float)
    return int(np.argmax(q + rng.laplace(0.0, 1 / epsilon, size=q.shape)))


def rnm_batch(data, n, *, rng, epsilon, **_):
    q = np.asarray(data, dtype=float)
    return np.argmax(q + rng.laplace(0.0, 2 / epsilon, size=(n, q.size)), axis=1).astype(np.int64)


rnm.batch = rnm_batch
