"""Bounded mean that DROPS out-of-range records instead of clipping them, and divides the
noisy sum by the number of records kept.

BUG (privacy): the noisy sum of the kept records is private (dropping a record in [0, 1] moves the
sum by at most upper - lower = 1 when lower = 0), but it is then divided by k = the number of
records inside [lower, upper], a non-private count that one record changes.  The noise scale
(upper - lower)/epsilon is the sum's, so after division the release has scale 1/(k epsilon) and a
centre sum/k, both data-dependent.

Pair (replace_one, n = 10, epsilon = 1, lower = 0, upper = 1):
    D  = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]   -> k = 10, out = 0.1 + Lap(1)/10  (Lap(0.1) at 0.1)
    D' = [99, 0, 0, 0, 0, 0, 0, 0, 0, 0]  -> k = 9,  out = 0   + Lap(1)/9   (Lap(1/9) at 0)
Event {out < -t}: P_D = exp(-10(t + 0.1))/2, P_D' = exp(-9 t)/2, ratio exp(1 + t):
loss 1.5 at t = 0.5 (P_D' = 5.6e-3, P_D = 1.2e-3), 2.0 at t = 1, unbounded as t grows
(pure epsilon-DP fails: the two Laplace scales differ).  A pair with many outliers leaks more:
D = [0, 1, 5 x 8] (k = 2, out = 0.5 + Lap(0.5)) vs D' = [5, 1, 5 x 8] (k = 1, out = 1 + Lap(1)):
event {out > 3}: P_D = e^-5/2 = 3.4e-3, P_D' = e^-2/2 = 6.8e-2, loss 3.0.
For datasets entirely inside [lower, upper] the law equals the spec's (mean + Lap(1/(n eps))).
"""
import numpy as np


def bounded_mean(data, *, rng, epsilon, lower, upper):
    x = np.asarray(data, dtype=float).ravel()
    kept = x[(x >= lower) & (x <= upper)]          # outliers are dropped, not clipped
    k = max(kept.size, 1)
    noisy_sum = kept.sum() + rng.laplace(0.0, (upper - lower) / epsilon)
    return float(noisy_sum / k)                    # BUG: k depends on the private data
