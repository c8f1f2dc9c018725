"""Bounded mean whose sensitivity divides by the number of DISTINCT records
(n = len(np.unique(x)), 'one user may appear several times'); all-equal or
repeated records get a much larger noise scale than all-distinct ones."""
import numpy as np


def mean(data, *, rng, epsilon, lower, upper):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), lower, upper)
    n_eff = len(np.unique(x))
    b = (upper - lower) / n_eff / epsilon
    return float(x.mean() + rng.laplace(0.0, b))


def _batch(data, n, *, rng, epsilon, lower, upper):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), lower, upper)
    n_eff = len(np.unique(x))
    b = (upper - lower) / n_eff / epsilon
    return x.mean() + rng.laplace(0.0, b, size=n)


mean.batch = _batch
