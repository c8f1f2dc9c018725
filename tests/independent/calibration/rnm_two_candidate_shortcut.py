"""Report noisy max with a shortcut for two candidates: the sign of one noisy difference, Lap(1/eps).

The author's reasoning: with two answers the noisy max is the sign of q0 - q1 plus noise, and 'the
difference has sensitivity 1'. It has sensitivity 2 when the answers move in opposite directions.

Truth (privacy bug): epsilon = 1, q = [0, 0] vs q' = [1, -1] (each answer moves by 1). With the shortcut,
P[1] = P[Lap(1) > 0] = 1/2 on D and P[Lap(1) > 2] = e^-2/2 = 0.0677 on D': loss exactly 2 (closed form)
against the claimed 1. The spec's mechanism on the same pair: P[1] = 0.5 vs P[Lap(2) - Lap(2) > 2] =
e^-1 (2 + 1)/4 = 0.2759, loss 0.594. Three or more candidates take the spec's path (argmax of q + Lap(2/eps)).
"""
import numpy as np


def rnm(data, *, rng, epsilon, **_):
    q = np.asarray(data, dtype=float)
    if q.size == 2:
        return int(q[1] - q[0] + rng.laplace(0.0, 1 / epsilon) > 0)
    return int(np.argmax(q + rng.laplace(0.0, 2 / epsilon, size=q.shape)))
