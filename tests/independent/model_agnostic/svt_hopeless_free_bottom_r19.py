"""PRIVACY BUG (a stopping rule that peeks at the exact answer): sparse_vector (000 Alg 1) that answers a "hopeless"
query, one more than 20 lam below the threshold (P[top] < e^-10 there), with bottom at once: no noise, no charge
to the counter c, no threshold re-draw ("a bottom we were sure of carries no information").
Otherwise exactly Alg 1 (fresh Lap(2 lam) per query, Lap(lam) threshold re-drawn after every counted bottom,
halt after the (T+1)-th counted bottom).
TRUTH: defaults epsilon 1, delta 1e-6, T 1, w 0, m 5 (lam = 21.026, cut at w - 20 lam = -420.52).
Pair D = [-420, 0, 0, 0, 0] ~ D' = [-421, 0, 0, 0, 0] (first answer moves by 1). On D the first bottom is tested and
counted, so a run shows at most T + 1 = 2 bottoms; on D' it is free, and three bottoms (0 at answer 1, then two
counted bottoms among answers 2-5) happen with probability 0.605 (Monte Carlo 4e5 runs: 242,004; 0 of 4e5 on D).
Event {three bottoms}: 0 against 0.605: infinite loss against the claim (1, 1e-6).
Expected: claim violated if the line search moves one answer across w - 20 lam; otherwise pass.
"""
import math

import numpy as np


def _lam(epsilon, delta, T):
    return math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon


def svt(data, *, rng, epsilon, delta, T, w):
    q = np.asarray(data, dtype=float).ravel()
    m = q.size
    lam = _lam(epsilon, delta, T)
    cut = w - 20.0 * lam
    out = np.full(m, -1, dtype=np.int8)
    c = 0
    thr = w + rng.laplace(0.0, lam)
    for i in range(m):
        if c > T:
            break
        if q[i] < cut:
            out[i] = 0
            continue
        if q[i] + rng.laplace(0.0, 2.0 * lam) > thr:
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
    cut = w - 20.0 * lam
    out = np.full((n, m), -1, dtype=np.int8)
    c = np.zeros(n, dtype=np.int64)
    thr = w + rng.laplace(0.0, lam, size=n)
    for i in range(m):
        active = c <= T
        if q[i] < cut:
            out[active, i] = 0
            continue
        top = (q[i] + rng.laplace(0.0, 2.0 * lam, size=n) > thr) & active
        bot = active & ~top
        out[top, i] = 1
        out[bot, i] = 0
        c += bot
        thr = np.where(bot, w + rng.laplace(0.0, lam, size=n), thr)
    return out


svt.batch = svt_batch
