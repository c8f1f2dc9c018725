"""bounded_sum, privacy bug: sensitivity taken as max(|lower|, |upper|).

The engineer used the add/remove-one sensitivity of a clipped sum (one record contributes at most
max|x|).  Under replace-one (the spec's relation) the sum moves by upper - lower.  The two agree
whenever lower >= 0 (the spec's defaults: lower = 0): the bug shows only with bounds of opposite
signs, e.g. lower = -1, upper = 1: noise Lap(1/eps) for a sensitivity of 2, exact loss 2*eps.
"""
import numpy as np


def bsum(data, *, rng, epsilon, lower, upper, n=None):
    x = np.clip(np.asarray(data, dtype=float), lower, upper)
    sens = max(abs(lower), abs(upper))
    return float(x.sum() + rng.laplace(0.0, sens / epsilon))


def _batch(data, n, *, rng, epsilon, lower, upper, **kw):
    x = np.clip(np.asarray(data, dtype=float), lower, upper)
    sens = max(abs(lower), abs(upper))
    return x.sum() + rng.laplace(0.0, sens / epsilon, size=n)


bsum.batch = _batch
