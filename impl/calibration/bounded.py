"""Bounded mean and bounded sum with clipping, as IBM diffprivlib 0.6.6 ships them
(``diffprivlib.tools.mean`` and ``diffprivlib.tools.sum``, ``tools/utils.py``: ``_mean`` and
``_sum``).

Contract: ``bounded_mean(data, *, rng, epsilon, lower, upper)`` and ``bounded_sum(...)`` with the
same arguments; ``data`` is the dataset, a float vector of n real records (n = len(data) is
public); ``lower < upper`` are the stated bounds. Every record is clipped to [lower, upper]
(diffprivlib: ``clip_to_bounds(np.ravel(array), bounds)``), then
- mean: mean(clipped) + Lap((upper - lower)/(n epsilon)) (diffprivlib: ``sensitivity=(upper -
  lower) / array.size``);
- sum: sum(clipped) + Lap((upper - lower)/epsilon) (diffprivlib: ``sensitivity=upper - lower``).
Output: a Python float; the batch samplers return float64 arrays of shape (n_runs,). Both
sensitivities are those of replacing one record with n public (bounded DP), the relation
diffprivlib's sensitivities imply: under it each release is epsilon-DP.

diffprivlib's ``LaplaceTruncated`` further clamps the noisy value into [lower, upper] (mean) or
[n lower, n upper] (sum): post-processing, which the spec's law leaves out; an implementation that
clamps keeps the claim and meets the calibration checks, whose events lie inside those ranges.
"""

from __future__ import annotations

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.noise import as_vector, laplace


def clipped(data, lower, upper) -> np.ndarray:
    """The records clipped to [lower, upper]."""
    return np.clip(as_vector(data), lower, upper)


def _mean_batch(data, n, *, rng, epsilon, lower, upper):
    x = clipped(data, lower, upper)
    return x.mean() + laplace(rng, (upper - lower) / (x.size * epsilon), int(n))


@batched(_mean_batch)
def bounded_mean(data, *, rng, epsilon, lower, upper):
    """mean of the clipped records + Lap((upper - lower)/(n epsilon)); a Python float."""
    return float(_mean_batch(data, 1, rng=rng, epsilon=epsilon, lower=lower, upper=upper)[0])


def _sum_batch(data, n, *, rng, epsilon, lower, upper):
    return clipped(data, lower, upper).sum() + laplace(rng, (upper - lower) / epsilon, int(n))


@batched(_sum_batch)
def bounded_sum(data, *, rng, epsilon, lower, upper):
    """sum of the clipped records + Lap((upper - lower)/epsilon); a Python float."""
    return float(_sum_batch(data, 1, rng=rng, epsilon=epsilon, lower=lower, upper=upper)[0])
