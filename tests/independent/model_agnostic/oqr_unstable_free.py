"""online_query_release (seed 000 Algorithm 3, A_OQR): lam = sqrt(32 T ln(2/delta))/epsilon,
w = 2 lam ln(2m/delta), w_hat = w + Lap(lam); row i = [f_i(D), dist_i]: release f_i(D) when
dist_i + Lap(2 lam) > w_hat, else bottom (-1), c += 1 and w_hat re-drawn; loop while c <= T, rows
after the halt are -2 (not answered). Per call only, no batch sampler.

PRIVACY BUG (group privacy-bug): a budget counter that charges only one kind of bottom. "A query at
distance 0 is unstable by definition, refusing it tells nothing, so it should not use up the cutoff":
a bottom on a row whose exact distance is 0 is not counted in c (the noisy test, the bottom and the
threshold re-draw are unchanged). Whether a bottom is charged now depends on the exact distance,
and the halting position reveals it.

TRUTH (the author's script, not kept; exact up to the tiny release probabilities), defaults epsilon = 8,
delta = 1e-3, T = 1, m = 4 (lam = 1.9495, w = 35.04), far = ceil(w + 30 lam) = 94:
  D  = [[0, 0], [0, 0], [0, 94], [0, 94]]   rows 1-2 unstable: bottoms are free, c stays 0, rows 3-4
                                             are always processed: P_D[out[2] = -2] = 0.
  D' = [[0, 1], [0, 1], [0, 94], [0, 94]]   (every distance moves by <= 1) rows 1-2 at distance 1:
                                             two charged bottoms (each with probability
                                             1 - P[release at dist 1] = 1 - 1.08e-4) -> c = 2 > T,
                                             halt: P_D'[out[2] = -2] = 0.99978 (MC 0.99974).
  Infinite privacy loss; delta needed 0.9998 against the claim (8, 1e-3).
  The spec's stress cases never move a distance between 0 and 1 with a second row behind it
  (halting_boundary keeps row 1 at distance 0 on both sides), so the bug needs the pair search.
"""
import math

import numpy as np


def oqr(data, *, rng, epsilon, delta, T, m):
    rows = np.atleast_2d(np.asarray(data, dtype=float))
    lam = math.sqrt(32 * T * math.log(2 / delta)) / epsilon
    w = 2 * lam * math.log(2 * m / delta)
    out = np.full(rows.shape[0], -2, dtype=np.int64)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i in range(rows.shape[0]):
        if c > T:
            break
        label, dist = rows[i, 0], rows[i, 1]
        if dist + rng.laplace(0.0, 2 * lam) > w_hat:
            out[i] = int(label)
        else:
            out[i] = -1
            if dist > 0:                  # unstable (distance 0) queries are "free"
                c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out
