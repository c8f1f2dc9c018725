"""Bounded sum that clips the records from above only (np.minimum), assuming they are never below `lower`.

Truth (privacy bug): a record below `lower` enters the sum unclipped, so the sensitivity is unbounded. At
the defaults (epsilon = 1, lower = 0, upper = 1, n = 10; noise Lap(1)), D = [0] * 10 and D' = [-3] + [0] * 9
(one record replaced): the sums are 0 and -3, so the loss is 3 (closed form: Laplace densities of scale 1
shifted by 3) against the claimed 1; a record at -c gives loss c. Records in [lower, +inf) behave as in the
spec.
"""
import numpy as np


def bounded_sum(data, *, rng, epsilon, lower, upper, **_):
    x = np.minimum(np.asarray(data, dtype=float), upper)
    return float(x.sum() + rng.laplace(0.0, (upper - lower) / epsilon))
