"""PRIVACY BUG: sparse_vector (000 Alg 1) whose per-query noise Lap(2 lam) is pre-generated in one buffer of at
most 128 draws ("vectorised noise block"), cycled with np.resize when m > 128: query 129 reuses query 1's draw.

Up to m = 128 every query gets its own fresh draw, so the law is exactly the spec's.
TRUTH: default point (epsilon 1, delta 1e-6, T 1, w 0; lam = 21.026), m = 129. Pair
D  = [w, w+1e4 (x127), w]           (answers 2..128 far above the threshold: top with prob 1 - e^-238)
D' = [w+1, w+1e4 (x127), w-1]       (every answer moves by <= 1: a query_answers neighbour)
On D, answers 1 and 129 use the same noise nu and the same threshold (no bottom in between if answer 1 is top),
so {out_1 = top, out_129 = bottom} is impossible: probability 0. On D' it happens iff nu - (w_hat - w) lies in
(-1, 1]: probability ~ 2 f_Z(0) = 2/(6 lam) = 0.0159 (Z = Lap(2 lam) - Lap(lam)). Loss: infinite on an event of
mass 0.016 >> delta = 1e-6, against the claim (1, 1e-6). For m <= 128 (every default and stress point, m = 5)
the law equals the spec's. Expected at default flags: pass unless a searched input has more than 128 answers.
"""
import math

import numpy as np

_BUF = 128


def _lam(epsilon, delta, T):
    return math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon


def svt(data, *, rng, epsilon, delta, T, w):
    q = np.asarray(data, dtype=float).ravel()
    m = q.size
    lam = _lam(epsilon, delta, T)
    noise = rng.laplace(0.0, 2.0 * lam, size=min(m, _BUF))
    if m > _BUF:
        noise = np.resize(noise, m)
    out = np.full(m, -1, dtype=np.int8)
    c = 0
    thr = w + rng.laplace(0.0, lam)
    for i in range(m):
        if c > T:
            break
        if q[i] + noise[i] > thr:
            out[i] = 1
        else:
            out[i] = 0
            c += 1
            thr = w + rng.laplace(0.0, lam)
    return out


def svt_batch(data, n, *, rng, epsilon, delta, T, w):
    q = np.asarray(data, dtype=float).ravel()
    m = q.size
    lam = _lam(epsilon, delta, T)
    noise = rng.laplace(0.0, 2.0 * lam, size=(n, min(m, _BUF)))
    if m > _BUF:
        reps = -(-m // _BUF)
        noise = np.tile(noise, (1, reps))[:, :m]
    out = np.full((n, m), -1, dtype=np.int8)
    c = np.zeros(n, dtype=np.int64)
    thr = w + rng.laplace(0.0, lam, size=n)
    for i in range(m):
        active = c <= T
        top = (q[i] + noise[:, i] > thr) & active
        bot = active & ~top
        out[top, i] = 1
        out[bot, i] = 0
        c += bot
        nb = int(bot.sum())
        if nb:
            thr[bot] = w + rng.laplace(0.0, lam, size=nb)
    return out


svt.batch = svt_batch
