"""Online query release (000 Alg 3, A_OQR), valid but unusual.

The per-query Laplace(2 lam) noise is integrated out: given the current
threshold w_hat, A_stab releases with probability
P[dist + Lap(2 lam) > w_hat] = S(w_hat - dist), S the Laplace survival
function, so 'release iff U < S(w_hat - dist)' with U ~ U(0,1) has exactly the
law of Alg 3 (the threshold is still drawn, shared within a segment, and
re-drawn after every bottom).  Threshold noise as w - Lap (symmetric).
"""
import numpy as np


def _consts(epsilon, delta, T, m):
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    return lam, 2.0 * lam * np.log(2.0 * m / delta)


def _surv(t, b):
    # P[Lap(b) > t]
    t = np.asarray(t, dtype=float)
    return np.where(t >= 0, 0.5 * np.exp(-np.abs(t) / b), 1.0 - 0.5 * np.exp(-np.abs(t) / b))


def _run(x, n, rng, epsilon, delta, T, m):
    lam, w = _consts(epsilon, delta, T, m)
    rows = x.shape[0]
    out = np.full((n, rows), -2, dtype=np.int64)
    c = np.zeros(n, dtype=np.int64)
    w_hat = w - rng.laplace(0.0, lam, size=n)
    for i in range(rows):
        active = c <= T
        rel = rng.random(n) < _surv(w_hat - x[i, 1], 2.0 * lam)
        out[active & rel, i] = int(x[i, 0])
        bot = active & ~rel
        out[bot, i] = -1
        c = c + bot
        w_hat = np.where(bot, w - rng.laplace(0.0, lam, size=n), w_hat)
    return out


def a_oqr(data, *, rng, epsilon, delta, T, m, beta):
    x = np.asarray(data, dtype=float).reshape(-1, 2)
    return _run(x, 1, rng, epsilon, delta, T, m)[0]


def _batch(data, n, *, rng, epsilon, delta, T, m, beta):
    x = np.asarray(data, dtype=float).reshape(-1, 2)
    return _run(x, n, rng, epsilon, delta, T, m)


a_oqr.batch = _batch
