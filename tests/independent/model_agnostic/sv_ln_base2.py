"""Sparse vector with lam = sqrt(32 T log2(1/delta))/eps (np.log2 where the paper's log is natural).

DIFFERS: lam is sqrt(1/ln 2) = 1.20x larger (more noise): still (eps, delta)-DP (each segment costs
2/lam' < 2/lam), but the transcript law differs from Algorithm 1's. Theorem 2.8 has slack (union
bound), so its utility check may or may not notice.
"""
import math

import numpy as np


def svt(data, *, rng, epsilon, delta, T, w):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    lam = math.sqrt(32.0 * T * math.log2(1.0 / delta)) / epsilon
    out = np.full(q.size, -1, dtype=np.int8)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i, qi in enumerate(q):
        if c > T:
            break
        if qi + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = 1
        else:
            out[i] = 0
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out


def _batch(data, N, *, rng, epsilon, delta, T, w):
    return np.stack([svt(data, rng=rng, epsilon=epsilon, delta=delta, T=T, w=w) for _ in range(N)])


svt.batch = _batch
