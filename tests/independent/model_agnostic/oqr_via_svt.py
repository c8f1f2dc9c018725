"""A_OQR written as the proof of Corollary 3.9 reads it: run A_sparseVec with delta/2 on the distances
(threshold w = 2 lam ln(2m/delta)) and replace each top by f_i(D). One call at a time, no batch.

VALID VARIANT: the same law as Algorithm 3 (lam = sqrt(32 T ln(1/(delta/2)))/eps is Algorithm 3's
lam; the noise and threshold logic are identical).
"""
import math

import numpy as np


def _sparse_vector(answers, rng, epsilon, delta, T, w):
    lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon
    bottoms = 0
    w_hat = w + rng.laplace(0.0, lam)
    for q in answers:
        if bottoms > T:
            yield None
            continue
        if q + rng.laplace(0.0, 2.0 * lam) > w_hat:
            yield True
        else:
            bottoms += 1
            w_hat = w + rng.laplace(0.0, lam)
            yield False


def oqr(data, *, rng, epsilon, delta, T, m):
    rows = [tuple(r) for r in np.asarray(data, dtype=np.float64).reshape(-1, 2)]
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    out = []
    for (f, _), top in zip(rows, _sparse_vector([d for _, d in rows], rng, epsilon, delta / 2.0, T, w)):
        out.append(-2 if top is None else (int(f) if top else -1))
    return np.array(out, dtype=np.int64)
