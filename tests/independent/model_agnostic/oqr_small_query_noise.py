"""A_OQR calling A_stab with noise Lap(1/(2 lam)) where the paper means Lap(1/eps') with eps' = 1/(2 lam),
i.e. Lap(2 lam) (pitfall P5 of the spec).

DIFFERS: with almost no noise on the distance the threshold noise Lap(lam) still protects each
comparison (a shift of 1 changes P[dist > w_hat] by at most e^(1/lam)), and an unstable query is
released only if Lap(lam) < -w (probability (1/2)(delta/2m)^2, smaller than the spec's). The
transcript law differs strongly (stable queries are released almost deterministically).
"""
import math

import numpy as np


def oqr(data, *, rng, epsilon, delta, T, m):
    rows = np.asarray(data, dtype=np.float64).reshape(-1, 2)
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    out = np.full(rows.shape[0], -2, dtype=np.int64)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i, (f, dist) in enumerate(rows):
        if c > T:
            break
        if dist + rng.laplace(0.0, 1.0 / (2.0 * lam)) > w_hat:
            out[i] = int(f)
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out


def _batch(data, N, *, rng, epsilon, delta, T, m):
    return np.stack([oqr(data, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m) for _ in range(N)])


oqr.batch = _batch
