"""Bounded sum whose sensitivity is 'the largest magnitude one record can have'.

BUG (privacy, only for lower < 0): the engineer reasoned "after clipping, one record contributes
at most max(|lower|, |upper|) to the sum" and used that as the sensitivity.  That is the
sensitivity under add/remove, but the spec's relation is replace_one (n fixed), where one
record can move the clipped sum by upper - lower.  For 0 <= lower < upper the used value
max(|lower|,|upper|) = upper >= upper - lower, so the mechanism is correct (or more noisy) at the
default point lower = 0, upper = 1 (exactly the spec's law there).

Leak: lower = -1, upper = 1, epsilon = 1, n = 10.  Pair (replace one record):
    D = [-1, 0, 0, 0, 0, 0, 0, 0, 0, 0],  D' = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
Clipped sums -1 and +1 (difference 2), noise Lap(1/epsilon) = Lap(1):
exact loss sup_x ln(f_D(x)/f_D'(x)) = 2/1 = 2.0 (e.g. event {out < -1}: P_D = 1/2,
P_D' = e^-2/2, ratio e^2).  In general the loss is epsilon*(upper-lower)/max(|lower|,|upper|),
up to 2*epsilon for symmetric bounds.
"""
import numpy as np


def bounded_sum(data, *, rng, epsilon, lower, upper):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    sensitivity = max(abs(lower), abs(upper))   # BUG: should be upper - lower under replace_one
    return float(x.sum() + rng.laplace(0.0, sensitivity / epsilon))
