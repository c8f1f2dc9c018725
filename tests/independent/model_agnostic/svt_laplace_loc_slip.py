"""Sparse vector (000 Alg 1) -- written against numpy's Generator API.

Bug (privacy): ``rng.laplace(lam)`` passes lam POSITIONALLY, i.e. as ``loc``
(numpy's signature is laplace(loc=0.0, scale=1.0)).  The threshold becomes
w + lam + Lap(1) and every query q + 2*lam + Lap(1): the comparison is
q - w + lam + Lap(1) - Lap(1) > 0, i.e. noise of scale 1 centred at w - lam
instead of scale 21/42.
"""
import numpy as np


def _lam(epsilon, delta, T):
    return np.sqrt(32.0 * T * np.log(1.0 / delta)) / epsilon


def sparse_vector(data, *, rng, epsilon, delta, T, w, m, beta):
    q = np.asarray(data, dtype=float).reshape(-1)
    lam = _lam(epsilon, delta, T)
    out = np.full(q.shape[0], -1, dtype=np.int8)
    c = 0
    w_hat = w + rng.laplace(lam)
    for i in range(q.shape[0]):
        if c > T:
            break
        q_hat = q[i] + rng.laplace(2 * lam)
        if q_hat > w_hat:
            out[i] = 1
        else:
            out[i] = 0
            c += 1
            w_hat = w + rng.laplace(lam)
    return out


def _batch(data, n, *, rng, epsilon, delta, T, w, m, beta):
    q = np.asarray(data, dtype=float).reshape(-1)
    lam = _lam(epsilon, delta, T)
    out = np.full((n, q.shape[0]), -1, dtype=np.int8)
    c = np.zeros(n, dtype=np.int64)
    w_hat = w + rng.laplace(lam, size=n)
    for i in range(q.shape[0]):
        active = c <= T
        q_hat = q[i] + rng.laplace(2 * lam, size=n)
        top = q_hat > w_hat
        out[active & top, i] = 1
        bot = active & ~top
        out[bot, i] = 0
        c = c + bot
        fresh = w + rng.laplace(lam, size=n)
        w_hat = np.where(bot, fresh, w_hat)
    return out


sparse_vector.batch = _batch
