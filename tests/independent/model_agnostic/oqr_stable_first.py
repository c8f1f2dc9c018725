"""Online query release (Algorithm 3) that answers the rows in decreasing order of distance.

The author's reasoning: answer the most stable queries first so that the T bottoms are not spent before them;
outputs are written back at each row's own position. The processing order now depends on the private
distances, and which rows are left unanswered (-2) reveals it.

Truth (privacy bug): at the defaults (epsilon = 8, delta = 1e-3, T = 1, m = 4; w = 35.04),
D = [[0, 1], [0, 0], [0, 0], [0, 0]] and D' = [[0, 0], [0, 0], [0, 0], [0, 1]] (rows 1 and 4 move their
distance by 1, labels equal). On D' row 4 is processed first, so it is always answered: P_D'[row 4 = -2] = 0.
On D row 4 is processed last and is left unanswered whenever two of the first three rows are bottoms, which
has probability >= P[rows 1 and 2 bottom] = (1 - S(w - 1))(1 - S(w)) = 0.9998 (S(d) = P[Lap(2 lam) - Lap(lam)
> d]: a fresh threshold for each, S(w - 1) = 1.08e-4, S(w) = 8.3e-5; note App. A2). Infinite loss; delta
needed >= 0.9998 against 1e-3.
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
    for i in np.argsort(-rows[:, 1], kind="stable"):
        if c > T:
            break
        label, dist = rows[i]
        if dist + rng.laplace(0.0, 2 * lam) > w_hat:
            out[i] = int(label)
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out
