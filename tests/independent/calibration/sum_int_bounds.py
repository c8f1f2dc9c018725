"""Bounded sum with the bounds rounded outward to integers before clipping
('diffprivlib's integer path needs integer bounds'), while the sensitivity is still
computed from the bounds as given: with fractional bounds the records are clipped to a
wider interval than the noise covers."""
import math

import numpy as np


def bsum(data, *, rng, epsilon, lower, upper):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), math.floor(lower), math.ceil(upper))
    return float(x.sum() + rng.laplace(0.0, (upper - lower) / epsilon))


def _batch(data, n, *, rng, epsilon, lower, upper):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), math.floor(lower), math.ceil(upper))
    return x.sum() + rng.laplace(0.0, (upper - lower) / epsilon, size=n)


bsum.batch = _batch
