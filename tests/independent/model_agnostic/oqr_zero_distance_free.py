"""Online query release (Algorithm 3) that answers rows of distance 0 with bottom, without noise and uncharged.

The author's reasoning: a query at distance 0 is unstable, its noisy distance would almost surely fall below
w anyway, so answer bottom at once and keep the budget of T bottoms for the noisy comparisons.

Truth (privacy bug): at the defaults (epsilon = 8, delta = 1e-3, T = 1, m = 4), D = [[0, 0]] * 4 and
D' = [[0, 1]] * 4 (every distance moves by 1, labels equal). On D the output is [-1, -1, -1, -1] with
probability 1 (four free bottoms). On D' every row goes through the noisy comparison, the run halts after its
second bottom, so four bottoms are impossible: the output [-1, -1, -1, -1] has probability exactly 0 on D'.
Infinite loss; delta needed 1 against the claimed 1e-3.
"""
import math

import numpy as np


def oqr(data, *, rng, epsilon, delta, T, m, **_):
    rows = np.asarray(data, dtype=float).reshape(-1, 2)
    lam = math.sqrt(32 * T * math.log(2 / delta)) / epsilon
    w = 2 * lam * math.log(2 * m / delta)
    out = np.full(rows.shape[0], -2, dtype=np.int64)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i, (label, dist) in enumerate(rows):
        if c > T:
            break
        if dist == 0:  # unstable: bottom for free
            out[i] = -1
            continue
        if dist + rng.laplace(0.0, 2 * lam) > w_hat:
            out[i] = int(label)
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out
