"""Report noisy max (StatDP ``noisy_max_v1a``) and the value-releasing negative control
(``noisy_max_v1b``).

Contract: ``report_noisy_max(data, *, rng, epsilon)``; ``data`` is the vector of k query
answers q_1..q_k, each of sensitivity 1 (neighbours move every answer by at most 1). Output:
the index argmax_i (q_i + Lap(2/epsilon)), a Python int in [0, k); the batch sampler returns
an int64 array of shape (n,). epsilon-DP.

``report_noisy_max_broken``: releases the noisy maximum VALUE max_i (q_i + Lap(2/epsilon)), a
float (batch: float64, shape (n,)); claimed epsilon but only k*epsilon/2-DP (the released value
is post-processing of the whole noisy vector, whose loss is k*epsilon/2 when every answer moves).
"""

from __future__ import annotations

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.noise import as_vector, laplace


def _noisy_answers(data, n, rng, epsilon, runs_axis=0):
    """q_i + Lap(2/epsilon), fresh per answer and run; the runs along ``runs_axis`` (0: shape (n, k))."""
    q = as_vector(data)
    if runs_axis == 0:
        noisy = laplace(rng, 2.0 / epsilon, (int(n), q.size))
        noisy += q
    else:
        noisy = laplace(rng, 2.0 / epsilon, (q.size, int(n)))
        noisy += q[:, None]
    return noisy


def _batch(data, n, *, rng, epsilon):
    # one row per run: numpy's argmax along rows of k values beats a running argmax over k columns
    return np.argmax(_noisy_answers(data, n, rng, epsilon), axis=1).astype(np.int64, copy=False)


@batched(_batch)
def report_noisy_max(data, *, rng, epsilon):
    """argmax_i q_i + Lap(2/epsilon); int index."""
    q = as_vector(data)
    noisy = q + laplace(rng, 2.0 / epsilon, q.shape)  # q_i + Lap(2/epsilon), i = 1..k
    return int(np.argmax(noisy))  # release the index only


def _batch_broken(data, n, *, rng, epsilon):
    # one column per run: the max over k contiguous rows costs 1/13 of np.max along rows of k values
    return np.max(_noisy_answers(data, n, rng, epsilon, runs_axis=1), axis=0)


@batched(_batch_broken)
def report_noisy_max_broken(data, *, rng, epsilon):
    """BROKEN on purpose: releases max_i q_i + Lap(2/epsilon) (the value, not the index); float."""
    q = as_vector(data)
    noisy = q + laplace(rng, 2.0 / epsilon, q.shape)
    return float(np.max(noisy))  # the defect: the noisy maximum value is released
