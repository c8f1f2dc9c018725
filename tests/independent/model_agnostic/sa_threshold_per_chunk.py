"""A_subSamp (seed 000 Algorithm 4) with the corrected distance, threshold rescaled to the chunks given.

Each row of chunk votes: mode = argmax with ties to the smallest label, gap = mode count - largest other
count, dist* = max(0, ceil(gap/2) - 1); A_OQR with lam = sqrt(32 T ln(2/delta))/epsilon, w_hat = w' +
Lap(lam) re-drawn after every bottom, fresh Lap(2 lam) on dist*; release the mode if dist* + noise >
w_hat, else bottom (-1), c += 1; loop while c <= T; -2 after the halt.
The bug: the author reads w = 2 lam ln(2m/delta) as calibrated for k_chunks = ceil(k) chunks and, when
the caller supplies fewer chunks (K = row sum < k_chunks), scales it to the chunks given:
w' = w * min(1, K / k_chunks) ("a distance of w out of k chunks"). For K >= k_chunks this is the spec's
mechanism. Per call only, no batch sampler.

TRUTH (privacy-bug, default point epsilon = 8, delta = 1e-3, T = 1, m = 4, beta = 0.1: lam = 1.9495,
w = 35.04, k_chunks = 914): with K = 10 chunks w' = 0.3834. Pair D = [[5, 5]] * 4 (tie, mode 0,
dist* 0) vs D' = [[4, 6]] * 4 (one vote moved per row, mode 1, dist* 0): label 0 at row 1 has
probability S(w') = (2/3) e^(-w'/(2 lam)) - (1/6) e^(-w'/lam) = 0.4673 on D and exactly 0 on D'
(infinite loss; hockey-stick delta needed 0.467 against 1e-3). With K = 100: w' = 3.834,
S = 0.226. At K = 914 and above there is no leak. Exact (closed form for S, checked by Monte Carlo).
"""
import math

import numpy as np


def oqr(data, *, rng, epsilon, delta, T, m, beta):
    V = np.atleast_2d(np.asarray(data, dtype=np.int64))
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    k = 272.0 * math.log(4.0 * m * T / min(delta, beta / 2.0)) * math.sqrt(T * math.log(2.0 / delta)) / epsilon + 6.0
    k_chunks = math.ceil(k)
    K = int(V[0].sum())
    w = w * min(1.0, K / k_chunks)
    out = np.full(V.shape[0], -2, dtype=np.int64)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i in range(V.shape[0]):
        if c > T:
            break
        row = V[i]
        mode = int(np.argmax(row))
        others = np.delete(row, mode)
        gap = int(row[mode]) - (int(others.max()) if others.size else 0)
        dist = max(0, -(-gap // 2) - 1)
        if dist + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = mode
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out
