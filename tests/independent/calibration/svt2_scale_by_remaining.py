"""svt_lyu_2 -- BUG (privacy; only for c >= 2).

A programmer reads "c" in the noise scales as "the number of tops still allowed" and
re-scales after every top: after k tops, the re-drawn threshold noise is Lap((c-k)/eps2)
and the query noise Lap(2(c-k)/eps1).  At c = 1 (the default) this is exactly the spec.

TRUTH: segment k+1 (after k tops) is an AboveThreshold run whose noise scales are
(c-k)/c times the spec's, so it is epsilon/(c-k)-DP instead of epsilon/c; total
epsilon * (1 + 1/2 + ... + 1/c): 1.5 epsilon at c = 2, 1.83 epsilon at c = 3.
At epsilon = 1, c = 2, T = 0: D = [0]*8 vs D' = [1,1,1,-1,1,1,1,-1], transcript
(0,0,0,1,0,0,0,1): exact (quadrature) P_D = 3.403e-3, P_D' = 1.108e-3, loss 1.122 > 1
(the spec's algorithm: 3.403e-3 vs 1.630e-3, loss 0.736).  Monte Carlo of this file,
4e5 calls a side: 3.528e-3 vs 1.083e-3, loss 1.18 +- 0.06.  Worst pattern found
(8 bottoms + top per segment, D = [2]*8+[-2] twice, D' = [3]*8+[-3] twice): loss 1.496
(P 3.3e-6 vs 7.5e-7; spec 0.994).  Exact spec law at c = 1.
"""
import numpy as np


def svt(data, *, rng, epsilon, threshold, c, **_):
    q = np.asarray(data, dtype=float).ravel()
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    out = np.full(q.shape[0], -1, dtype=np.int8)
    remaining = c
    rho = rng.laplace(0.0, remaining / eps1)
    for i in range(q.shape[0]):
        nu = rng.laplace(0.0, 2.0 * remaining / eps1)
        if q[i] + nu >= threshold + rho:
            out[i] = 1
            remaining -= 1
            if remaining <= 0:
                break
            rho = rng.laplace(0.0, remaining / eps2)
        else:
            out[i] = 0
    return out
