"""Sub-sample and aggregate (Algorithm 4, as printed) with lam four times too small.

The author writes lam = sqrt(2 T ln(2/delta))/eps (the 'sqrt(2 ln)' of the Gaussian calibration) instead of
sqrt(32 T ln(2/delta))/eps: lam/4, used everywhere (noise Lap(lam/4), Lap(lam/2) and w = 2 (lam/4) ln(2m/delta)).
dist = max(0, gap - 1) as printed; mode ties to the smallest label.

Truth (privacy bug), at epsilon = 8, delta = 1e-3, T = 1, m = 6 (lam' = 0.4874, w' = 9.155): D = [[15, 5]] * 6
(gap 10, dist 9 in every row) and D' = rows [14, 6], [14, 6], [16, 4], [14, 6], [14, 6], [16, 4] (one vote moved
per row: dist 7, 7, 11, 7, 7, 11). The transcript [0, 0, -1, 0, 0, -1] has probability 8.834e-3 on D and
8.41e-8 on D', so P_D - e^eps P_D' > delta up to eps = ln((8.834e-3 - 1e-3)/8.41e-8) = 11.44 against the
claimed 8 (exact transcript law: quadrature over each segment's threshold noise, 4e5 points on +-60 lam';
the full (eps, delta) profile of the pair gives the same 11.44). At the default m = 4 the best pair of the same
family (all distances equal, each moved by +-2) reaches 7.82 < 8.
"""
import math

import numpy as np


def sa(data, *, rng, epsilon, delta, T, m, **_):
    counts = np.asarray(data, dtype=np.int64)
    lam = math.sqrt(2 * T * math.log(2 / delta)) / epsilon
    w = 2 * lam * math.log(2 * m / delta)
    out = np.full(counts.shape[0], -2, dtype=np.int64)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i, row in enumerate(counts):
        if c > T:
            break
        mode = int(np.argmax(row))
        gap = row[mode] - np.max(np.delete(row, mode))
        dist = max(0, gap - 1)
        if dist + rng.laplace(0.0, 2 * lam) > w_hat:
            out[i] = mode
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out
