"""Online query release via distance to instability (A_OQR, Algorithm 3).

The noise of the sparse-vector part is computed with epsilon capped at 1 (the
advanced-composition analysis behind lam assumes epsilon <= 1; more noise is never
less private). The threshold w is the paper's 2 lam log(2m/delta).
"""
import math

import numpy as np


def _consts(epsilon, delta, T, m):
    lam = math.sqrt(32 * T * math.log(2 / delta)) / epsilon
    w = 2 * lam * math.log(2 * m / delta)
    lam_noise = math.sqrt(32 * T * math.log(2 / delta)) / min(epsilon, 1.0)
    return w, lam_noise


def _run(f, dist, rng, w, lam_noise, T):
    rows = f.size
    out = np.full(rows, -2, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam_noise)
    c = 0
    for i in range(rows):
        if c > T:
            break
        dh = dist[i] + rng.laplace(0.0, 2 * lam_noise)
        if dh > w_hat:
            out[i] = int(f[i])
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam_noise)
    return out


def oqr(data, *, rng, epsilon, delta, T, m, beta=None, **kw):
    a = np.asarray(data, dtype=float).reshape(-1, 2)
    w, ln = _consts(epsilon, delta, int(T), int(m))
    return _run(a[:, 0], a[:, 1], rng, w, ln, int(T))


def _batch(data, N, *, rng, epsilon, delta, T, m, beta=None, **kw):
    a = np.asarray(data, dtype=float).reshape(-1, 2)
    w, ln = _consts(epsilon, delta, int(T), int(m))
    rows = a.shape[0]
    out = np.full((N, rows), -2, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, ln, size=N)
    c = np.zeros(N, dtype=np.int64)
    for i in range(rows):
        act = c <= int(T)
        dh = a[i, 1] + rng.laplace(0.0, 2 * ln, size=N)
        top = act & (dh > w_hat)
        bot = act & ~top
        out[top, i] = int(a[i, 0])
        out[bot, i] = -1
        c[bot] += 1
        w_hat[bot] = w + rng.laplace(0.0, ln, size=int(bot.sum()))
    return out


oqr.batch = _batch
