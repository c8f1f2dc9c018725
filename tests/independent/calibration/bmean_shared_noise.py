"""Bounded mean as a ratio of a noisy sum and a noisy count.

Records are clipped to [lower, upper] and rescaled to [0, 1]; the sum S (sensitivity 1)
and the count n each get Laplace noise of scale 1/(n*epsilon)*n = 1/epsilon, but the
SAME draw z is used for both ("the count is public anyway, so the second draw costs
nothing and the ratio stays unbiased to first order"): mean = (S + z) / (n + z).
"""
import numpy as np


def _parts(data, lower, upper):
    x = np.clip(np.asarray(data, dtype=np.float64).ravel(), lower, upper)
    s01 = np.sum((x - lower) / (upper - lower))
    return s01, x.size


def mean(data, *, rng, epsilon, lower, upper):
    s01, n = _parts(data, lower, upper)
    z = rng.laplace(0.0, 1.0 / epsilon)
    return float(lower + (upper - lower) * ((s01 + z) / (n + z)))


def _batch(data, n_runs, *, rng, epsilon, lower, upper):
    s01, n = _parts(data, lower, upper)
    z = rng.laplace(0.0, 1.0 / epsilon, size=n_runs)
    return lower + (upper - lower) * ((s01 + z) / (n + z))


mean.batch = _batch
