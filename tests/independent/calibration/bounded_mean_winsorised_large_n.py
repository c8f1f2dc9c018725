"""Bounded mean (diffprivlib.tools.mean's law): records clipped to [lower, upper], the mean plus Laplace noise of
scale (upper - lower) / (n epsilon). From 100 records on, the mean of the middle 90% (5% cut at each end) is
reported instead, which is less sensitive to outliers."""
import numpy as np

ROBUST_FROM = 100


def _estimate(data, lower, upper):
    x = np.sort(np.clip(np.asarray(data, dtype=float).ravel(), lower, upper))
    if x.size >= ROBUST_FROM:
        cut = x.size // 20
        return x[cut:x.size - cut].mean(), x.size
    return x.mean(), x.size


def bounded_mean(data, *, rng, epsilon, lower, upper, **_):
    centre, n = _estimate(data, lower, upper)
    return float(centre + rng.laplace(0.0, (upper - lower) / (n * epsilon)))


def bounded_mean_batch(data, n, *, rng, epsilon, lower, upper, **_):
    centre, size = _estimate(data, lower, upper)
    return centre + rng.laplace(0.0, (upper - lower) / (size * epsilon), size=n)


bounded_mean.batch = bounded_mean_batch
