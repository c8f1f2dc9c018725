"""Bounded mean with clipping (diffprivlib.tools.mean style), with a "big data" speed path.

For more than 4096 records the mean is estimated from a uniform random subsample of 4096
records drawn without replacement (from rng), "the estimate is as good as the noise anyway".
The Laplace scale is still (upper - lower)/(n epsilon) with n the full size -- but the
subsample mean moves by (upper - lower)/4096 when a sampled record changes, n/4096 times the
sensitivity the noise is calibrated for (amplification by subsampling does not cover that).
Up to 4096 records the code is the exact mechanism.
"""
import numpy as np

_M = 4096
_CHUNK = 50_000


def _sub_means(x, n, rng):
    vals, counts = np.unique(x, return_counts=True)
    if vals.size <= 64:     # exact law via the multivariate hypergeometric on the distinct values
        out = np.empty(n)
        for s in range(0, n, _CHUNK):
            k = min(_CHUNK, n - s)
            draws = rng.multivariate_hypergeometric(counts, _M, size=k)
            out[s:s + k] = draws @ vals / _M
        return out
    return np.array([rng.choice(x, _M, replace=False).mean() for _ in range(n)])


def bounded_mean(data, *, rng, epsilon, lower, upper, n=None, **_):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), lower, upper)
    N = x.size
    b = (upper - lower) / (N * epsilon)
    m = x.mean() if N <= _M else float(_sub_means(x, 1, rng)[0])
    return float(m + rng.laplace(0.0, b))


def _batch(data, n, *, rng, epsilon, lower, upper, **_):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), lower, upper)
    N = x.size
    b = (upper - lower) / (N * epsilon)
    m = np.full(n, x.mean()) if N <= _M else _sub_means(x, n, rng)
    return m + rng.laplace(0.0, b, size=n)


bounded_mean.batch = _batch


def bounded_mean_default(data, *, rng):
    """Ad-hoc audit helper: the spec's defaults (epsilon = 1, bounds [0, 1])."""
    return bounded_mean(data, rng=rng, epsilon=1.0, lower=0.0, upper=1.0)


def _batch_default(data, n, *, rng):
    return _batch(data, n, rng=rng, epsilon=1.0, lower=0.0, upper=1.0)


bounded_mean_default.batch = _batch_default
