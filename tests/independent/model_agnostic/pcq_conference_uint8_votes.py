"""private_classification_queries_conference -- BUG (vote counts stored as uint8).

What it is: A_binClas (004 Algorithm 2) exactly as specified (lam, w, w_hat = w + Lap(lam),
q_hat = argmax ties -> 0, dist = max(0, ct(q_hat) - ct(1-q_hat) - 1), release iff
dist + Lap(2 lam) > w_hat, bottom -> c += 1 and w_hat redrawn, halt after the (T+1)-th
bottom), but the vote matrix is stored as np.uint8 "to save memory, counts are small".
With K >= 256 chunks the counts wrap modulo 256.

TRUTH (defaults eps = 8, delta = 1e-3, T = 1, m = 4: lam = 1.949, w = 35.04):
row (512, 396) (K = 908 = k_chunks) is read as (0, 140): q_hat = 1, dist = 139;
its neighbour (511, 397) (one vote moved) is read as (255, 141): q_hat = 0, dist = 113.
Both are released with probability ~1 (the file: 1e5 of 1e5 calls each), so
D = [[512,396]] gives label 1 and D' = [[511,397]] gives label 0 with probability ~1:
the event {out_0 = 1} has probability 1 vs 0 -> infinite loss, delta needed ~1 >> 1e-3.
(The true mode is 0 on both.) Exact whenever every count is < 256 (K < 256).
"""
import math

import numpy as np


def binclas(data, *, rng, **params):
    eps = float(params["epsilon"])
    delta = float(params["delta"])
    T = int(params["T"])
    m = int(params["m"])
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / eps
    w = 2.0 * lam * math.log(2.0 * m / delta)
    votes = np.asarray(data).astype(np.uint8)            # BUG: wraps counts >= 256
    votes = votes.reshape(-1, 2)
    rows = votes.shape[0]
    out = np.full(rows, -2, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam)
    c = 0
    for i in range(rows):
        if c > T:
            break
        c0, c1 = int(votes[i, 0]), int(votes[i, 1])
        q_hat = 0 if c0 >= c1 else 1
        top, other = (c0, c1) if q_hat == 0 else (c1, c0)
        dist = max(0, top - other - 1)
        if dist + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = q_hat
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out
