"""Averaged learner A' (002 Lemma 2, corrected): the mean of the r block predictions.

BUG: the sum is divided by n, the records of a block ("average over the data"), not by the number of
blocks r. At the default n = 10 > r = 4 the output moves by gamma/10 when one block moves by gamma,
within the lemma's gamma/r; where n < r (n = 1, r = 4) it moves by gamma, four times gamma/r.
"""
import numpy as np


def averaged(data, *, r, n, gamma=None, nu=None, beta=None):
    blocks = np.asarray(data, dtype=np.float64).reshape(-1)
    if blocks.size != int(r):
        raise ValueError(f"expected {r} block predictions, got {blocks.size}")
    return float(blocks.sum() / int(n))


def _batch(data, N, *, r, n, gamma=None, nu=None, beta=None):
    return np.full(int(N), averaged(data, r=r, n=n))


averaged.batch = _batch
