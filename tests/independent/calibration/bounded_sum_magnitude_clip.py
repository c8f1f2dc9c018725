"""Bounded sum (diffprivlib.tools.sum) -- PRIVACY BUG: records clipped by magnitude, DP-SGD style.

The bounds are turned into one norm bound B = max(|lower|, |upper|) and each record is clipped to [-B, B]
("clip each contribution's norm"), while the noise stays Lap((upper - lower)/epsilon).  A record then
moves the sum by up to 2B > upper - lower whenever lower > -B or upper < B, e.g. for the default [0, 1]:
a record at -1000 is clipped to -1 (not to 0).  One call at a time, no .batch.

TRUTH (closed form: two Laplace laws shifted by s, loss s/b): the spec's stress pair
record_far_below_to_far_above, D = [lower - 1000 (upper - lower), 0 x (n-1)] vs D' = [upper + 1000 (upper - lower), 0 x (n-1)]:
  - default eps = 1, [0, 1], n = 10: clipped sums -1 vs +1, s = 2, b = 1: loss 2.000 against 1;
  - audit point eps = 0.5, [-2, 3], n = 5: B = 3, sums -3 vs +3, s = 6, b = 10: loss 0.600 against 0.5;
  - record_lower_to_upper and record_far_above (records never below lower): loss eps, as the spec.
"""
import numpy as np


def bounded_sum(data, *, rng, epsilon, lower, upper, **_):
    bound = max(abs(lower), abs(upper))
    x = np.clip(np.asarray(data, dtype=float).ravel(), -bound, bound)
    return float(x.sum() + rng.laplace(0.0, (upper - lower) / epsilon))
