"""Geometric mechanism, valid variant: the two-sided geometric noise is sampled as the
difference of two i.i.d. one-sided geometrics on {0, 1, ...} with success probability
1 - alpha (numpy's geometric counts trials, starting at 1; the shift cancels).
P[G1 - G2 = k] = (1-alpha)^2 alpha^|k| / (1 - alpha^2) = (1-alpha)/(1+alpha) alpha^|k|."""
import math

import numpy as np


def geom(data, *, rng, epsilon, sensitivity):
    f = np.asarray(data, dtype=float).reshape(-1).astype(np.int64)
    q = 1.0 - math.exp(-epsilon / sensitivity)
    z = rng.geometric(q, size=f.shape) - rng.geometric(q, size=f.shape)
    return (f + z).astype(np.int64)


def _batch(data, n, *, rng, epsilon, sensitivity):
    f = np.asarray(data, dtype=float).reshape(-1).astype(np.int64)
    q = 1.0 - math.exp(-epsilon / sensitivity)
    z = rng.geometric(q, size=(n, f.size)) - rng.geometric(q, size=(n, f.size))
    return (f[None, :] + z).astype(np.int64)


geom.batch = _batch
