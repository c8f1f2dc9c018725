"""report_noisy_max, VALID, written differently: each Laplace(2/epsilon) noise is drawn as the difference
of two independent exponentials Exp(scale) - Exp(scale) (which has exactly the Laplace(scale) law), answers
are scanned in a Python loop keeping the running best with a strict '>' (ties have probability 0 with
continuous noise, so the tie rule is immaterial), and the answers are first negated and the argmin taken
(argmax of x = argmin of -x).
TRUTH: valid (same law as the spec).
"""
import numpy as np


def rnm(data, *, rng, epsilon):
    q = -np.asarray(data, dtype=float).ravel()
    scale = 2.0 / epsilon
    best_i, best_v = 0, None
    for i in range(q.size):
        noise = rng.exponential(scale) - rng.exponential(scale)
        v = q[i] - noise              # -(q_i + noise'), noise' = -noise has the same law
        if best_v is None or v < best_v:
            best_i, best_v = i, v
    return int(best_i)
