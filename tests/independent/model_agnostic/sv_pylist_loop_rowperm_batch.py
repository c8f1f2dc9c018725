"""Sparse vector A_sparseVec (seed 000 Algorithm 1): lam = sqrt(32 T ln(1/delta))/epsilon,
w_hat = w + Lap(lam) re-drawn after every bottom, q_hat = q + Lap(2 lam) fresh per query, top iff
q_hat > w_hat, halt after the (T+1)-th bottom (-1 afterwards). Written differently: a pure-Python
per-call loop over a plain list, Laplace variates as -b ln(U1/U2) with U1, U2 = 1 - rng.random()
(log of a ratio of uniforms: Exp(1) - Exp(1)), drawn lazily (initial threshold, then per query its
noise, and after a bottom the new threshold).
The batch sampler generates the N runs in reversed order (run N-1 first) with rng.laplace on blocks;
runs are i.i.d., so the law of the returned array is the same. Unused keywords m, beta via **_.
Output int8 (m,), batch int8 (N, m). Law: the spec's."""
import math

import numpy as np


def _lap(rng, b):
    u1 = 1.0 - rng.random()
    u2 = 1.0 - rng.random()
    return -b * math.log(u1 / u2)


def svt(data, *, rng, epsilon, delta, T, w, **_):
    q = [float(v) for v in np.ravel(data)]
    lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon
    out = [-1] * len(q)
    bottoms = 0
    w_hat = w + _lap(rng, lam)
    for i, qi in enumerate(q):
        if bottoms > T:
            break
        if qi + _lap(rng, 2.0 * lam) > w_hat:
            out[i] = 1
        else:
            out[i] = 0
            bottoms += 1
            w_hat = w + _lap(rng, lam)
    return np.array(out, dtype=np.int8)


def _batch(data, N, *, rng, epsilon, delta, T, w, **_):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    m = q.size
    lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon
    thr = w + rng.laplace(0.0, lam, size=(N, T + 2))     # initial + one per bottom
    qn = q[None, :] + rng.laplace(0.0, 2.0 * lam, size=(N, m))
    out = np.full((N, m), -1, dtype=np.int8)
    b = np.zeros(N, dtype=np.int64)
    rows = np.arange(N)
    for i in range(m):
        live = b <= T
        cur = thr[rows, np.minimum(b, T + 1)]
        top = live & (qn[:, i] > cur)
        bot = live & ~top
        out[top, i] = 1
        out[bot, i] = 0
        b[bot] += 1
    return out[::-1].copy()        # runs in reversed order


svt.batch = _batch
