"""report_noisy_max -- VALID VARIANT (different sampler, constant-input shortcut done right).

What it is: Report Noisy Max with Lap(2/eps) noise, written differently:
 * each Laplace draw is sign * Exp(scale), sign a fair +-1 from rng.integers (the
   standard representation of Lap(b) as a symmetric exponential);
 * the arg max is taken with a uniformly random tie rule (ties have probability 0);
 * when all answers are equal the index is drawn uniformly from {0..k-1}.

TRUTH: same output law as argmax_i(q_i + Lap(2/eps)). Sign*Exp(b) is exactly Lap(b).
For a constant input the k noisy values are i.i.d. continuous, hence exchangeable, so
the arg max is uniform on {0..k-1} -- exactly what the shortcut returns. epsilon-DP
with the same loss as the spec (e.g. 0.594 on [0,0] vs [1,-1] at eps = 1 for k = 2).
"""
import numpy as np


def rnm(data, *, rng, **params):
    eps = float(params["epsilon"])
    q = np.asarray(data, dtype=float).ravel()
    k = q.size
    if k == 1:
        return 0
    if np.all(q == q[0]):
        return int(rng.integers(0, k))            # exchangeable noise -> uniform arg max
    b = 2.0 / eps
    sign = rng.integers(0, 2, size=k) * 2 - 1
    noisy = q + sign * rng.exponential(b, size=k)
    best = np.flatnonzero(noisy == noisy.max())
    return int(best[0] if best.size == 1 else rng.choice(best))
