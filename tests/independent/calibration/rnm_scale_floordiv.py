"""report_noisy_max, BUG (privacy; parameter triggered): Laplace scale written 2 // epsilon (floor division).

b = 2 // epsilon equals 2/epsilon whenever 2/epsilon is an integer (eps = 1, 2, 0.5, 0.25, ..., every
'round' epsilon), so the law is exactly the spec's there.  Elsewhere b is too small: eps = 0.75 gives
b = 2.0 instead of 2.667, eps = 1.5 gives b = 1.0 instead of 1.333, and eps > 2 gives b = 0.0 (no noise:
a deterministic argmax, infinite loss).
TRUTH: at eps = 0.75 the mechanism is report-noisy-max with Lap(2): its loss is 2/b = 1.0 > 0.75 in the
limit; pair q = [0, 8, 8, 8, 8] vs q' = [1, 7, 7, 7, 7] (every answer moves by 1) gives P[0] =
0.0037394 vs 0.0101648 (quadrature), loss 1.0000 > 0.75 (MC 2e7: 0.003701 vs 0.010140, loss 1.008; the spec's
Lap(2.667) gives 0.74998 on the same pair).  At eps = 3: q = [0, 1] vs [1, 0] gives index 1
w.p. 1 vs 0 (infinite loss).
"""
import numpy as np


def rnm(data, *, rng, epsilon=1.0):
    q = np.asarray(data, dtype=np.float64)
    scale = 2 // epsilon
    noisy = q + rng.laplace(0.0, scale, size=q.shape)
    return int(np.argmax(noisy))
