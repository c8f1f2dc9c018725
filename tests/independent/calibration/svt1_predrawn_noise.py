"""Sparse vector, Lyu-Su-Li Algorithm 1 -- VALID VARIANT: all noise drawn up front, strict `>`, vectorised.

rho = Lap(1/eps1) once and the m query noises nu_i = Lap(2c/eps2) are drawn before any comparison (the
noises of queries after the abort are drawn and discarded); the tops are q_i + nu_i > T + rho (strict:
equality has probability 0); the c-th top is found with a cumulative count, and everything after it is -1.
Since the discarded noises are independent of the transcript, the law is the spec's.  Per call and .batch
(the same code on an (n, m) array).

TRUTH: the spec's transcript law exactly (loss 0.991 on rest_up_last_down_m10 at the default, epsilon-DP): must pass.
"""
import numpy as np


def _codes(q, rho, nu, threshold, c):
    top = (q[None, :] + nu) > (threshold + rho[:, None])
    seen = np.cumsum(top, axis=1)
    before = np.concatenate([np.zeros((top.shape[0], 1), dtype=seen.dtype), seen[:, :-1]], axis=1)
    out = top.astype(np.int8)
    out[before >= c] = -1
    return out


def svt(data, *, rng, epsilon, threshold, c):
    q = np.asarray(data, dtype=float).ravel()
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    rho = rng.laplace(0.0, 1.0 / eps1, size=1)
    nu = rng.laplace(0.0, 2.0 * c / eps2, size=(1, q.shape[0]))
    return _codes(q, rho, nu, threshold, c)[0]


def svt_batch(data, n, *, rng, epsilon, threshold, c):
    q = np.asarray(data, dtype=float).ravel()
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    rho = rng.laplace(0.0, 1.0 / eps1, size=n)
    nu = rng.laplace(0.0, 2.0 * c / eps2, size=(n, q.shape[0]))
    return _codes(q, rho, nu, threshold, c)


svt.batch = svt_batch
