"""stable_histogram (seed 003 Lemma 15, Hist as reconstructed in note 003 A8): noisy counts
c~_x = c_x + Lap(2/epsilon) for the items that occur, released iff c~_x >= tau = 1 + (2/epsilon) ln(1/delta),
output rows (id, min(1, c~_x/n)) in ascending id order, padded with (-1, 0) to n rows.

PRIVACY BUG (group privacy-bug): a pre-filter "items seen fewer than MIN_COUNT = 4 times are noise and can
never realistically pass tau, drop them before adding noise" (it also saves noise draws on long tails).
The spec's delta-event is an item whose count drops from 1 to 0, released with probability exactly
delta/2; with the filter the same thing happens at the filter's edge, where an item whose count drops
from 4 to 3 disappears, but a count-4 item passes tau with probability (delta/2) e^(3 epsilon/2), not delta/2.
Per call only, no batch sampler.

TRUTH (exact, the author's script, not kept), epsilon = 1:
  at delta = 0.02 (the spec's stress-case delta; n = 10, tau = 1 + 2 ln 50 = 8.824):
    D  = (0, 0, 0, 0, 0, 0, 1, 1, 1, 1)    item 1 has count 4: P_D[1 in L] = 0.5 e^(-(tau - 4)/2) = 0.0448
    D' = (0, 0, 0, 0, 0, 0, 0, 1, 1, 1)    (one record replaced) count 3 -> filtered: P_D'[1 in L] = 0
    P_D[E] - e^eps P_D'[E] = 0.0448 > delta = 0.02: the (1, 0.02) claim is violated (delta needed 0.0448).
  at the default delta = 1e-6 (tau = 28.63): P_D[1 in L] = (delta/2) e^(3/2) = 2.24e-6 > 1e-6 (violated,
  but an event of probability 2e-6 is beyond a Monte-Carlo audit).
  On the spec's stress cases (counts 1 vs 0, 26 vs 25, 16 vs 15, ...) the filter only removes
  count-1 items, which lowers every loss: the bug needs a pair with a count moving between 3 and 4.
"""
import math

import numpy as np

MIN_COUNT = 4


def hist(data, *, rng, epsilon, delta):
    s = np.asarray(data, dtype=np.int64).ravel()
    n = s.size
    tau = 1.0 - (2.0 / epsilon) * math.log(delta)
    ids, counts = np.unique(s, return_counts=True)
    keep = counts >= MIN_COUNT
    ids, counts = ids[keep], counts[keep]
    noisy = counts + rng.laplace(0.0, 2.0 / epsilon, size=counts.size)
    rel = noisy >= tau
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    k = int(rel.sum())
    out[:k, 0] = ids[rel]
    out[:k, 1] = np.minimum(1.0, noisy[rel] / n)
    return out
