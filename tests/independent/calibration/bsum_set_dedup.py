"""bounded_sum -- BUG (duplicates removed before summing: 'a record repeated is the same record').

The clipped records are de-duplicated with set() before the sum; noise Lap((upper-lower)/epsilon).
TRUTH:
 * Law (Fact BS2) broken at every audit point whenever D has repeated values: D = [1.0]*10
   at [0, 1] releases 1 + Lap(1) instead of 10 + Lap(1) (centre off by 9).
 * Privacy: replacing one record changes the distinct-value sum by b - a (both move), by +b
   (a still present, b new) or by -a (a unique, b present). With lower >= 0 the change can be
   upper > upper - lower, so for lower > 0 the mechanism is NOT epsilon-DP:
   lower = 1, upper = 2, epsilon = 1: D = [1]*10 (sum 1) vs D' = [1]*9 + [2] (sum 3): shift 2 with
   Lap(1) noise: loss exactly 2 = 2 epsilon. At lower = 0 (the default) and at lower <= 0
   the change is <= max(upper - lower, upper, -lower) = upper - lower, so epsilon-DP holds there.
"""
import numpy as np


def bounded_sum(data, *, rng, epsilon=1.0, lower=0.0, upper=1.0, **_):
    x = np.clip(np.asarray(data, dtype=np.float64).ravel(), lower, upper)
    s = float(sum(set(x.tolist())))
    b = (float(upper) - float(lower)) / float(epsilon)
    return float(s + rng.laplace(0.0, b))
