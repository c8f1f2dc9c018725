"""Sparse vector (Algorithm 1), per-call function and a faithful vectorised batch sampler.

Valid variant: per run, the T + 1 threshold draws w + Lap(lam) are made up front (segment j, i.e. the answers
after the j-th bottom, compares with the j-th) and the m query noises Lap(2 lam) too; one bottom counter per
run; a run halts after its (T + 1)-th bottom. Each threshold is still fresh for its segment and independent of
everything else, so the transcript law is exactly Algorithm 1's (the reference draws them lazily; the order of
independent draws does not change the law). The per-call function is the batch at n = 1.
"""
import math

import numpy as np


def svt(data, *, rng, epsilon, delta, T, w, **_):
    return svt_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, w=w)[0]


def svt_batch(data, n, *, rng, epsilon, delta, T, w, **_):
    q = np.asarray(data, dtype=float)
    lam = math.sqrt(32 * T * math.log(1 / delta)) / epsilon
    thr = w + rng.laplace(0.0, lam, size=(n, T + 1))
    noisy = q + rng.laplace(0.0, 2 * lam, size=(n, q.shape[0]))
    out = np.full((n, q.shape[0]), -1, dtype=np.int8)
    c = np.zeros(n, dtype=np.int64)
    rows = np.arange(n)
    for i in range(q.shape[0]):
        live = c <= T
        top = noisy[:, i] > thr[rows, np.minimum(c, T)]
        out[live & top, i] = 1
        out[live & ~top, i] = 0
        c += live & ~top
    return out


svt.batch = svt_batch
