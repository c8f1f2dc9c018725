"""Sparse vector (Algorithm 1), one query at a time, Laplace noise by inverse CDF from uniforms.

Valid variant: Lap(b) = b ln(2u) for u < 1/2 and -b ln(2(1 - u)) otherwise (u uniform on [0, 1)), the
inverse of the Laplace CDF; top iff q + Lap(2 lam) > w + Lap(lam); a bottom re-draws the threshold; halt after
the (T + 1)-th bottom (-1 after it). The same transcript law as the spec. Per call, no batch.
"""
import math

import numpy as np


def _laplace(rng, b):
    u = rng.random()
    return b * math.log(2 * u) if u < 0.5 else -b * math.log(2 * (1 - u))


def svt(data, *, rng, epsilon, delta, T, w, **_):
    q = np.asarray(data, dtype=float)
    lam = math.sqrt(32 * T * math.log(1 / delta)) / epsilon
    out = np.full(q.shape[0], -1, dtype=np.int8)
    c = 0
    w_hat = w + _laplace(rng, lam)
    for i, qi in enumerate(q):
        out[i] = 1 if qi + _laplace(rng, 2 * lam) > w_hat else 0
        if out[i] == 0:
            c += 1
            if c > T:
                break
            w_hat = w + _laplace(rng, lam)
    return out
