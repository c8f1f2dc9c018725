"""Sparse vector (Algorithm 1) with a fast path: an answer more than 5*lam above w is 'top' without noise.

The author's reasoning: above w + 5 lam the noisy comparison says top with high probability anyway, so skip
the two Laplace draws. It does not: the noisy path says bottom there with probability S(5 lam) > 0, the fast
path never does.

Truth (privacy bug): at the defaults (epsilon = 1, delta = 1e-6, T = 1, w = 0, m = 5; lam = 21.026),
D = [5 lam - 0.5] * 5 and D' = [5 lam + 0.5] * 5 (every answer moves by 1). On D' the transcript is
[1, 1, 1, 1, 1] with probability 1; on D some answer is bottom with probability 0.2229 (quadrature over the
shared threshold noise, 4e5-point grid on +-60 lam). The event 'some bottom' has probability 0.2229 against
exactly 0: infinite loss, and (epsilon, delta) needs delta >= 0.22 against the claimed 1e-6. With one answer
(m = 1) the gap is P[Lap(2 lam) - Lap(lam) < -5 lam] = S(5) = (2/3)e^-2.5 - (1/6)e^-5 = 0.054.
"""
import math

import numpy as np


def svt(data, *, rng, epsilon, delta, T, w, **_):
    q = np.asarray(data, dtype=float)
    lam = math.sqrt(32 * T * math.log(1 / delta)) / epsilon
    out = np.full(q.shape[0], -1, dtype=np.int8)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i, qi in enumerate(q):
        if c > T:
            break
        if qi - w > 5 * lam:  # fast path: "certainly above"
            out[i] = 1
            continue
        if qi + rng.laplace(0.0, 2 * lam) > w_hat:
            out[i] = 1
        else:
            out[i] = 0
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out
