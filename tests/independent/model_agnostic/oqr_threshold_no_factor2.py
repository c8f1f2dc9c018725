"""A_OQR with the threshold w = lam ln(2m/delta) (the factor 2 of 'w <- 2 lambda log(2m/delta)' dropped).

PRIVACY BUG: an unstable query (dist 0 on both sides, labels differ) is released with probability
S(w) = (2/3) e^(-w/(2 lam)) - (1/6) e^(-w/lam) = (2/3) sqrt(delta/2m) - (1/6)(delta/2m) = 7.4e-3 at
delta = 1e-3, m = 4 (spec: 8.3e-5). On delta_event_single_query D releases label 0 w.p. 7.4e-3 and
D' never does: delta >= 7.4e-3 > 1e-3.
"""
import math

import numpy as np


def oqr(data, *, rng, epsilon, delta, T, m):
    rows = np.asarray(data, dtype=np.float64).reshape(-1, 2)
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = lam * math.log(2.0 * m / delta)
    out = np.full(rows.shape[0], -2, dtype=np.int64)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i, (f, dist) in enumerate(rows):
        if c > T:
            break
        if dist + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = int(f)
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out


def _batch(data, N, *, rng, epsilon, delta, T, m):
    return np.stack([oqr(data, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m) for _ in range(N)])


oqr.batch = _batch
