"""Bounded mean with 'norm clipping' of the records (as in DP-SGD): every record's magnitude
is clipped to [lower, upper], its sign kept.
BUG: with lower = 0 a record of -5 becomes -1, so the records live in [-upper, upper] and the
mean moves by 2(upper-lower)/n, twice the sensitivity the noise is scaled to.
"""
import numpy as np


def _clip(x, lower, upper):
    return np.sign(x) * np.clip(np.abs(x), lower, upper)


def dp_mean(data, *, rng, epsilon, lower, upper, **_unused):
    x = _clip(np.ravel(np.asarray(data, dtype=np.float64)), lower, upper)
    b = (upper - lower) / (x.size * epsilon)
    return float(x.mean() + rng.laplace(0.0, b))


def _batch(data, n, *, rng, epsilon, lower, upper, **_unused):
    x = _clip(np.ravel(np.asarray(data, dtype=np.float64)), lower, upper)
    b = (upper - lower) / (x.size * epsilon)
    return x.mean() + rng.laplace(0.0, b, size=n)


dp_mean.batch = _batch
