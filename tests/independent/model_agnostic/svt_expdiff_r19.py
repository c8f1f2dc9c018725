"""VALID: sparse_vector (000 Alg 1) with another sampler of the same law.

Laplace(b) drawn as b*(E1 - E2) with E1, E2 ~ Exp(1) independent (difference of exponentials), the comparison
q_hat >= w_hat (ties have probability 0), threshold re-drawn after every bottom, halt after the (T+1)-th bottom.
TRUTH: identical law to the spec's A_sparseVec; (epsilon, delta)-DP holds (Thm 2.7). Expected: pass (exit 0).
"""
import math

import numpy as np


def _lam(epsilon, delta, T):
    return math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon


def _lap(rng, b, size=None):
    return b * (rng.exponential(1.0, size) - rng.exponential(1.0, size))


def svt(data, *, rng, epsilon, delta, T, w):
    q = np.asarray(data, dtype=float).ravel()
    m = q.size
    lam = _lam(epsilon, delta, T)
    out = np.full(m, -1, dtype=np.int8)
    c = 0
    thr = w + _lap(rng, lam)
    for i in range(m):
        if c > T:
            break
        if q[i] + _lap(rng, 2.0 * lam) >= thr:
            out[i] = 1
        else:
            out[i] = 0
            c += 1
            thr = w + _lap(rng, lam)
    return out


def svt_batch(data, n, *, rng, epsilon, delta, T, w):
    q = np.asarray(data, dtype=float).ravel()
    m = q.size
    lam = _lam(epsilon, delta, T)
    out = np.full((n, m), -1, dtype=np.int8)
    c = np.zeros(n, dtype=np.int64)
    thr = w + _lap(rng, lam, n)
    for i in range(m):
        active = c <= T
        if not active.any():
            break
        top = (q[i] + _lap(rng, 2.0 * lam, n) >= thr) & active
        bot = active & ~top
        out[top, i] = 1
        out[bot, i] = 0
        c += bot
        thr = np.where(bot, w + _lap(rng, lam, n), thr)
    return out


svt.batch = svt_batch
