"""BUG: bounded mean that DISCARDS records outside [lower, upper] instead of clipping them, and divides
the sum of the kept records by the number kept (not by n), with the spec's noise Lap((upper-lower)/(n eps)).
Why it breaks privacy: the denominator is data-dependent, so one record can move the mean by up to
(upper-lower) instead of (upper-lower)/n. Concrete (n = 10, [0, 1], eps = 1, b = 0.1):
D = [1, 5, 5, 5, 5, 5, 5, 5, 5, 5] (mean of kept = 1) vs D' = [0, 5, ..., 5] (mean 0): loss 1/0.1 = 10 > 1.
Also D = [1, 0,...,0] vs D' = [5, 0,...,0]: 0.1 vs 0 (harmless), but only out-of-range records show it.
If no record is kept, it releases (lower+upper)/2 + noise.
Expected class: claim violated.
"""
import numpy as np


def _center(data, lower, upper):
    x = np.ravel(np.asarray(data, dtype=float))
    n = x.size
    keep = (x >= lower) & (x <= upper)
    c = (lower + upper) / 2.0 if not keep.any() else float(x[keep].sum() / keep.sum())
    return c, n


def bmean(data, *, rng, epsilon, lower, upper):
    c, n = _center(data, lower, upper)
    return float(c + rng.laplace(0.0, (upper - lower) / (n * epsilon)))


def bmean_batch(data, N, *, rng, epsilon, lower, upper):
    c, n = _center(data, lower, upper)
    return c + rng.laplace(0.0, (upper - lower) / (n * epsilon), size=N)


bmean.batch = bmean_batch
