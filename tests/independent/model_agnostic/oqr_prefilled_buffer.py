"""Online query release (000 Alg 3, A_OQR) with a pre-filled output buffer.

Bug (privacy): to save writes, the output starts as a copy of the exact
labels f_i(D); bottoms are overwritten with -1.  When the run halts after the
(T+1)-th bottom the loop just breaks, so the rows after the halt keep the
pre-filled exact labels instead of -2 (not answered).  Unstable rows (dist 0,
labels that flip on the neighbour) after the halt are released exactly.
"""
import numpy as np


def _consts(epsilon, delta, T, m):
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    return lam, 2.0 * lam * np.log(2.0 * m / delta)


def a_oqr(data, *, rng, epsilon, delta, T, m, beta):
    x = np.asarray(data, dtype=float).reshape(-1, 2)
    lam, w = _consts(epsilon, delta, T, m)
    out = x[:, 0].astype(np.int64)          # pre-filled with the answers
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i in range(x.shape[0]):
        if c > T:
            break
        if x[i, 1] + rng.laplace(0.0, 2.0 * lam) > w_hat:
            continue                          # released: keep f_i(D)
        out[i] = -1
        c += 1
        w_hat = w + rng.laplace(0.0, lam)
    return out


def _batch(data, n, *, rng, epsilon, delta, T, m, beta):
    x = np.asarray(data, dtype=float).reshape(-1, 2)
    lam, w = _consts(epsilon, delta, T, m)
    out = np.tile(x[:, 0].astype(np.int64), (n, 1))
    c = np.zeros(n, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam, size=n)
    for i in range(x.shape[0]):
        active = c <= T
        rel = x[i, 1] + rng.laplace(0.0, 2.0 * lam, size=n) > w_hat
        bot = active & ~rel
        out[bot, i] = -1
        c = c + bot
        w_hat = np.where(bot, w + rng.laplace(0.0, lam, size=n), w_hat)
    return out


a_oqr.batch = _batch
