"""Sparse vector that never halts: it keeps answering (and re-drawing the threshold) after the
(T+1)-th bottom.

DIFFERS at the spec's parameters: the transcript law differs (no -1), but the privacy claim still
holds: each segment costs at most 2/lam (lam = 21.0 at the defaults), so m = 5 segments cost at most
5 * 2/lam = 0.48 < eps = 1 (and the delta part is not used). For large m it would exceed eps.
"""
import math

import numpy as np


def svt(data, *, rng, epsilon, delta, T, w):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon
    out = np.empty(q.size, dtype=np.int8)
    w_hat = w + rng.laplace(0.0, lam)
    for i, qi in enumerate(q):
        if qi + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = 1
        else:
            out[i] = 0
            w_hat = w + rng.laplace(0.0, lam)
    return out


def _batch(data, N, *, rng, epsilon, delta, T, w):
    return np.stack([svt(data, rng=rng, epsilon=epsilon, delta=delta, T=T, w=w) for _ in range(N)])


svt.batch = _batch
