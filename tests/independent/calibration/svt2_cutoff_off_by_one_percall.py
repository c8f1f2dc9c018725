"""svt_lyu_2, BUG: off-by-one in the cutoff: the abort test is `count > c` instead of `count >= c`,
so the run answers up to c + 1 tops (c + 1 AboveThreshold segments, each calibrated for epsilon/c).

Kind: off-by-one in a loop bound / count.

TRUTH (exact, from the spec's own figures): at c = 1, eps = 1, T = 0, take
D = [0]*10 and D' = [1,1,1,1,-1, 1,1,1,1,-1], event E = [0,0,0,0,1, 0,0,0,0,1].
Segments are independent (rho is redrawn after the first top), and each 5-query segment is the
spec's rest_up_last_down_m5 pattern (P = 0.0354 vs 0.0151, loss 0.849), so
P_D(E) = 0.0354^2 = 1.25e-3, P_D'(E) = 0.0151^2 = 2.28e-4, loss = 2*0.849 = 1.698 > 1.
(Generally the true epsilon is (c+1)/c * epsilon: 2 at c=1, eps=1; 0.75 at c=2, eps=0.5.)
On the spec's stress pairs of length 10 whose event ends at the c-th top, the law is unchanged
except the answers after the c-th top are answered instead of -1.
"""
import numpy as np


def svt2(data, *, rng, epsilon, threshold, c):
    q = np.asarray(data, dtype=float)
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    out = np.full(q.size, -1, dtype=np.int8)
    rho = rng.laplace(0.0, c / eps1)
    count = 0
    for i in range(q.size):
        if count > c:                  # BUG: should be count >= c
            break
        nu = rng.laplace(0.0, 2.0 * c / eps1)
        if q[i] + nu >= threshold + rho:
            out[i] = 1
            count += 1
            rho = rng.laplace(0.0, c / eps2)
        else:
            out[i] = 0
    return out
