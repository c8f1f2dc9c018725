"""Geometric (two-sided) mechanism as the difference of two numpy geometric variables.

BUG: numpy's Generator.geometric(p) takes the SUCCESS probability p (pmf (1-p)^(k-1) p), so
the ratio of the law is 1 - p; this code passes p = alpha = exp(-epsilon/sensitivity), the
ratio it wants. The noise has ratio 1 - alpha: too much noise for alpha < 1/2 (epsilon >
ln 2 at sensitivity 1) and far too little for small epsilon.
"""
import math

import numpy as np


def geometric(data, *, rng, epsilon, sensitivity, **_unused):
    f = np.asarray(data, dtype=np.float64).reshape(-1).astype(np.int64)
    a = math.exp(-epsilon / sensitivity)
    z = rng.geometric(a, size=f.shape) - rng.geometric(a, size=f.shape)
    return (f + z).astype(np.int64)


def _batch(data, n, *, rng, epsilon, sensitivity, **_unused):
    f = np.asarray(data, dtype=np.float64).reshape(-1).astype(np.int64)
    a = math.exp(-epsilon / sensitivity)
    z = rng.geometric(a, size=(n, f.size)) - rng.geometric(a, size=(n, f.size))
    return (f + z).astype(np.int64)


geometric.batch = _batch
