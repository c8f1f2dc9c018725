"""Lyu-Su-Li Algorithm 1 (sparse vector), vectorised.

All m comparisons are made at once (rho drawn once, fresh nu_i per query), and the abort is
applied afterwards: the c-th top is located with np.argmax(cumsum(top) >= c) and everything
after it is set to -1. Slip: when there are fewer than c tops, argmax of an all-False array is
0, so every position after the first is marked "not answered" although the algorithm never
aborted. The output is an injective function of the correct output (an all-bottom run becomes
[0, -1, ..., -1], which no correct run produces), so privacy is kept but the law differs.
"""
import numpy as np


def _apply(top, c):
    out = top.astype(np.int8)
    cs = np.cumsum(top, axis=-1)
    k = np.argmax(cs >= c, axis=-1)                          # index of the c-th top (0 if none!)
    idx = np.arange(top.shape[-1])
    out[idx > k[..., None]] = -1
    return out


def svt1(data, *, rng, epsilon, threshold, c, **_):
    q = np.asarray(data, dtype=float).reshape(-1)
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    rho = rng.laplace(0.0, 1.0 / eps1)
    nu = rng.laplace(0.0, 2.0 * c / eps2, size=q.shape)
    top = q + nu >= threshold + rho
    return _apply(top[None, :], c)[0]


def _batch(data, n, *, rng, epsilon, threshold, c, **_):
    q = np.asarray(data, dtype=float).reshape(-1)
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    rho = rng.laplace(0.0, 1.0 / eps1, size=(n, 1))
    nu = rng.laplace(0.0, 2.0 * c / eps2, size=(n, q.size))
    return _apply(q + nu >= threshold + rho, c)


svt1.batch = _batch
