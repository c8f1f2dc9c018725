"""Bounded sum with clipping.  Sensitivity taken as the largest magnitude a record can have
(max(|lower|, |upper|)), i.e. what one record adds to or removes from the sum."""
import numpy as np


def _sens(lower, upper):
    return max(abs(lower), abs(upper))


def bounded_sum(data, *, rng, epsilon, lower, upper, **_):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    return float(x.sum() + rng.laplace(0.0, _sens(lower, upper) / epsilon))


def _batch(data, n_runs, *, rng, epsilon, lower, upper, **_):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    return x.sum() + rng.laplace(0.0, _sens(lower, upper) / epsilon, size=n_runs)


bounded_sum.batch = _batch
