"""Bounded mean with a numerically careful blocked mean: the clipped records are averaged in blocks
of 1024 (each block mean is accurate in float64), then the block means are averaged.
Noise Lap((upper - lower)/(n epsilon))."""
import numpy as np

BLOCK = 1024


def _blocked_mean(x):
    means = [x[s:s + BLOCK].mean() for s in range(0, x.size, BLOCK)]
    return float(np.mean(means))


def bounded_mean(data, *, rng, epsilon, lower, upper, **_):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    return _blocked_mean(x) + float(rng.laplace(0.0, (upper - lower) / (x.size * epsilon)))


def _batch(data, n, *, rng, epsilon, lower, upper, **_):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    return _blocked_mean(x) + rng.laplace(0.0, (upper - lower) / (x.size * epsilon), size=n)


bounded_mean.batch = _batch
