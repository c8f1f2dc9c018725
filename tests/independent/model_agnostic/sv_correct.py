"""Sparse vector A_sparseVec (seed 000 Algorithm 1): lam = sqrt(32 T ln(1/delta))/eps, w_hat = w + Lap(lam);
for each query while c <= T: q_hat = q + Lap(2 lam); top (1) if q_hat > w_hat, else bottom (0), c += 1
and w_hat is re-drawn. Unanswered queries after the (T+1)-th bottom: -1."""
import math

import numpy as np


def svt(data, *, rng, epsilon, delta, T, w):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon
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
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    m = q.size
    lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon
    out = np.full((N, m), -1, dtype=np.int8)
    c = np.zeros(N, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam, size=N)
    qn = q[None, :] + rng.laplace(0.0, 2.0 * lam, size=(N, m))
    fresh = w + rng.laplace(0.0, lam, size=(N, T + 1))   # the thresholds after the 1st..(T+1)-th bottom
    for i in range(m):
        live = c <= T
        top = live & (qn[:, i] > w_hat)
        bot = live & ~top
        out[top, i] = 1
        out[bot, i] = 0
        idx = np.nonzero(bot)[0]
        w_hat[idx] = fresh[idx, np.minimum(c[idx], T)]
        c[idx] += 1
    return out


svt.batch = _batch
