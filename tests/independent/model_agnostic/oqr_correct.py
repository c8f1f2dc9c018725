"""Online query release A_OQR (seed 000 Algorithm 3): lam = sqrt(32 T ln(2/delta))/eps,
w = 2 lam ln(2m/delta), w_hat = w + Lap(lam); for each row [f_i, dist_i] while c <= T: release f_i if
dist_i + Lap(2 lam) > w_hat, else bottom (-1), c += 1, w_hat re-drawn. Not answered: -2."""
import math

import numpy as np


def oqr(data, *, rng, epsilon, delta, T, m):
    rows = np.asarray(data, dtype=np.float64).reshape(-1, 2)
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    out = np.full(rows.shape[0], -2, dtype=np.int64)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i, (f, dist) in enumerate(rows):
        if c > T:
            break
        if dist + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = int(f)
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out


def _batch(data, N, *, rng, epsilon, delta, T, m):
    rows = np.asarray(data, dtype=np.float64).reshape(-1, 2)
    k = rows.shape[0]
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    out = np.full((N, k), -2, dtype=np.int64)
    c = np.zeros(N, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam, size=N)
    noisy = rows[None, :, 1] + rng.laplace(0.0, 2.0 * lam, size=(N, k))
    fresh = w + rng.laplace(0.0, lam, size=(N, T + 1))
    for i in range(k):
        live = c <= T
        top = live & (noisy[:, i] > w_hat)
        bot = live & ~top
        out[top, i] = int(rows[i, 0])
        out[bot, i] = -1
        idx = np.nonzero(bot)[0]
        w_hat[idx] = fresh[idx, np.minimum(c[idx], T)]
        c[idx] += 1
    return out


oqr.batch = _batch
