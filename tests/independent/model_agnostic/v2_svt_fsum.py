"""A_sparseVec (paper 000, Algorithm 1) with exact comparisons of noisy answers and noisy thresholds:
top iff q + nu_q > w + nu_w, decided by the sign of math.fsum([q, nu_q, -w, -nu_w]) (the exact sum's
sign; huge answers never swamp the noise by rounding). Per call only."""
import math

import numpy as np


def svt(data, *, rng, epsilon, delta, T, w, **_unused):
    answers = [float(v) for v in np.asarray(data, dtype=float).reshape(-1).tolist()]
    lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon
    out = [-1] * len(answers)
    w = float(w)
    thr_noise = float(rng.laplace(0.0, lam))
    c = 0
    for i, q in enumerate(answers):
        if c > T:
            break
        q_noise = float(rng.laplace(0.0, 2.0 * lam))
        if math.fsum([q, q_noise, -w, -thr_noise]) > 0.0:
            out[i] = 1
        else:
            out[i] = 0
            thr_noise = float(rng.laplace(0.0, lam))
            c += 1
    return np.array(out, dtype=np.int8)
