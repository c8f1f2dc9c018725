"""Bounded mean (diffprivlib-style), clipped records, Laplace noise of scale (upper - lower)/(n epsilon); but when
n epsilon < 1 (the noise wider than the range) the noise is redrawn until the release lies in [lower, upper], a
"tidy" release. Rejection to a window around a data-dependent mean is Laplace conditioned on that window: its
normaliser depends on the data. Per call, no batch."""
import numpy as np


def bmean(data, *, rng, epsilon, lower, upper, **_):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    n = x.size
    mean = float(x.mean())
    b = (upper - lower) / (n * epsilon)
    release = mean + rng.laplace(0.0, b)
    if n * epsilon < 1:
        while not lower <= release <= upper:
            release = mean + rng.laplace(0.0, b)
    return release
