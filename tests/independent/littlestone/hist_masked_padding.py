"""Stable histogram Hist (Lemma 15) -- PRIVACY BUG: suppressed items leak through the padding.

The code builds the full (id, a) table of every item that occurs, in ascending id order, then moves
the released rows to the front and "masks" the others by setting their id to -1 -- but forgets to zero
their estimate column.  Padding rows should be (-1, 0); here the rows of the items below the threshold
are (-1, min(1, c~/n)), so the number of distinct items (including singletons) and their noisy counts
are released although they never cleared tau.
"""
import numpy as np


def _hist(data, n_runs, rng, epsilon, delta, n):
    x = np.asarray(data, dtype=np.int64).ravel()
    ids, counts = np.unique(x, return_counts=True)
    b = 2.0 / epsilon
    tau = 1.0 + b * np.log(1.0 / delta)
    noisy = counts[None, :] + rng.laplace(0.0, b, size=(n_runs, ids.size))
    rel = noisy >= tau
    table_id = np.broadcast_to(ids.astype(float), noisy.shape).copy()
    table_a = np.minimum(1.0, noisy / n)
    table_id[~rel] = -1.0                       # mask the suppressed ids ...
    # ... BUG: table_a[~rel] should be set to 0 as well
    order = np.argsort(~rel, axis=1, kind="stable")   # released first, ascending id kept
    out = np.zeros((n_runs, x.size, 2))
    out[:, :, 0] = -1.0
    out[:, : ids.size, 0] = np.take_along_axis(table_id, order, axis=1)
    out[:, : ids.size, 1] = np.take_along_axis(table_a, order, axis=1)
    return out


def stable_histogram(data, *, rng, epsilon, delta, eta, beta, n):
    return _hist(data, 1, rng, epsilon, delta, n)[0]


def stable_histogram_batch(data, n_runs, /, *, rng, epsilon, delta, eta, beta, n):
    return _hist(data, n_runs, rng, epsilon, delta, n)


stable_histogram.batch = stable_histogram_batch
