"""A_binClas (seed 004 Algorithm 2, conference version) with the threshold's log taken in base 10.

For each row of chunk votes (c_0, c_1): q_hat = argmax (ties to label 0), dist = max(0, |c_0 - c_1| - 1)
(as printed). lam = sqrt(32 T ln(2/delta))/epsilon; w_hat = w + Lap(lam), re-drawn after every bottom;
release q_hat if dist + Lap(2 lam) > w_hat, else bottom (-1) and c += 1; loop while c <= T; rows after
the halt -2. The bug: w = 2 lam log10(2m/delta) (np.log10 where the paper's log is natural) instead of
2 lam ln(2m/delta). lam itself uses the natural log. Per call only, no batch sampler.

TRUTH (privacy-bug): the release probability of a row at dist = 0 is
S(w) = (2/3) exp(-w/(2 lam)) - (1/6) exp(-w/lam); with w/(2 lam) = log10(8000) = 3.903 (m = 4,
delta = 1e-3, any epsilon) S = 0.01338, against 8.33e-5 for the spec's w (ratio 160). Pair (default
point epsilon = 8, delta = 1e-3, T = 1, m = 4): D = [[50, 50]] * 4 (tie, mode 0, dist 0) vs
D' = [[49, 51]] * 4 (one vote moved in every row, mode 1, dist 1): label 0 at row 1 has probability
0.01338 on D and exactly 0 on D' (the mode is 1). Hockey-stick delta needed >= 0.0134 = 13.4 x delta
at every epsilon (exact; the event 'some row released as 0' has about 0.027 on D).
"""
import math

import numpy as np


def classify(data, *, rng, epsilon, delta, T, m):
    V = np.atleast_2d(np.asarray(data, dtype=np.int64))
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * np.log10(2.0 * m / delta)
    out = np.full(V.shape[0], -2, dtype=np.int64)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i in range(V.shape[0]):
        if c > T:
            break
        c0, c1 = int(V[i, 0]), int(V[i, 1])
        q_hat = 1 if c1 > c0 else 0
        dist = max(0, abs(c0 - c1) - 1)
        if dist + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = q_hat
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out
