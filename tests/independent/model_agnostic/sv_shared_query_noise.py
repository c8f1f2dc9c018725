"""Sparse vector that draws the query noise once, outside the loop, and reuses it for every query.

PRIVACY BUG: within a segment all comparisons use the same q-noise and the same threshold, so the
transcript orders the answers exactly. On the spec's mixed_directions pair (all answers w on D;
w+1 x4 then w-1 on D'), the transcript [1, 1, 1, 1, 0] needs q_1 + nu > w_hat >= q_5 + nu with
q_1 = q_5 on D: probability 0 on D, positive on D': infinite loss.
"""
import math

import numpy as np


def svt(data, *, rng, epsilon, delta, T, w):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon
    nu = rng.laplace(0.0, 2.0 * lam)
    out = np.full(q.size, -1, dtype=np.int8)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i, qi in enumerate(q):
        if c > T:
            break
        if qi + nu > w_hat:
            out[i] = 1
        else:
            out[i] = 0
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out


def _batch(data, N, *, rng, epsilon, delta, T, w):
    return np.stack([svt(data, rng=rng, epsilon=epsilon, delta=delta, T=T, w=w) for _ in range(N)])


svt.batch = _batch
