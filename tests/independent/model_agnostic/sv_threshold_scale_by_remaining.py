"""BUG: "remaining budget" accounting in the threshold noise: after each bottom the threshold is
re-drawn with lam computed from the bottoms still allowed, lam_c = sqrt(32*(T+1-c)*ln(1/delta))/eps
(c = index of the current segment, 1..T+1), instead of the fixed lam = sqrt(32*T*ln(1/delta))/eps.
The first segment has exactly the right noise; the last segment (c = T+1) gets lam = 0, i.e. no
threshold noise and no query noise at all: after the T-th bottom each answer is compared exactly
with w.  Pair (T=1, w=0): q = [-100, 0.5, ...] vs q' = [-99, -0.5, ...]: after the first bottom
(prob ~1) the second output is 1 on D and 0 on D' deterministically -> infinite loss.
Expected class: claim violated.
"""
import numpy as np


def svt(data, *, rng, epsilon, delta, T, w, m, **_):
    q = np.asarray(data, dtype=float)
    out = np.full(q.size, -1, dtype=np.int8)
    c = 1
    lam = np.sqrt(32 * (T + 1 - c) * np.log(1 / delta)) / epsilon
    w_hat = w + rng.laplace(0.0, lam)
    for i in range(q.size):
        if c > T + 1:
            break
        q_hat = q[i] + rng.laplace(0.0, 2 * lam) if lam > 0 else q[i]
        if q_hat > w_hat:
            out[i] = 1
        else:
            out[i] = 0
            c += 1
            lam = np.sqrt(32 * max(T + 1 - c, 0) * np.log(1 / delta)) / epsilon   # bug
            w_hat = w + (rng.laplace(0.0, lam) if lam > 0 else 0.0)
    return out
