"""A_subSamp (corrected dist*) on vote rows, A_OQR loop.

Runner-up count taken from the sorted DISTINCT counts (np.unique), a
vectorisation shortcut: when the top count is tied the 'second distinct value'
is a smaller count (or, when every count is equal, there is no second value and
the gap is taken as the top count itself).
"""
import numpy as np


def subsample_aggregate(data, *, rng, epsilon, delta, T, m, beta):
    votes = np.asarray(data, dtype=np.int64)
    if votes.ndim == 1:
        votes = votes[None, :]
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * np.log(2.0 * m / delta)
    out = np.full(votes.shape[0], -2, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam)
    c = 0
    for i, row in enumerate(votes):
        if c > T:
            break
        mode = int(np.argmax(row))                 # ties -> smallest label
        u = np.unique(row)                         # sorted distinct counts
        gap = int(u[-1] - u[-2]) if u.size > 1 else int(u[-1])
        dist = max(0, -(-gap // 2) - 1)            # max(0, ceil(gap/2) - 1)
        if dist + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = mode
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out
