"""Stable histogram Hist (Lemma 15) -- PRIVACY BUG: one Laplace draw per distinct COUNT VALUE.

"Vectorised" noise: the noisy count is looked up from a table indexed by the count level
(noise_by_level[level]), so items that have equal true counts receive the identical noise and,
when released, identical estimates.  Equal estimates reveal that two counts were equal.
"""
import numpy as np


def _hist(data, n_runs, rng, epsilon, delta, n):
    x = np.asarray(data, dtype=np.int64).ravel()
    ids, counts = np.unique(x, return_counts=True)
    b = 2.0 / epsilon
    tau = 1.0 + b * np.log(1.0 / delta)
    levels, lvl_of = np.unique(counts, return_inverse=True)
    noise_by_level = rng.laplace(0.0, b, size=(n_runs, levels.size))   # BUG: shared per level
    noisy = counts[None, :] + noise_by_level[:, lvl_of]
    rel = noisy >= tau
    out = np.zeros((n_runs, x.size, 2))
    out[:, :, 0] = -1.0
    pos = np.cumsum(rel, axis=1) - 1
    r, j = np.nonzero(rel)
    out[r, pos[r, j], 0] = ids[j]
    out[r, pos[r, j], 1] = np.minimum(1.0, noisy[r, j] / n)
    return out


def stable_histogram(data, *, rng, epsilon, delta, eta, beta, n):
    return _hist(data, 1, rng, epsilon, delta, n)[0]



def stable_histogram_batch(data, n_runs, /, *, rng, epsilon, delta, eta, beta, n):
    return _hist(data, n_runs, rng, epsilon, delta, n)


stable_histogram.batch = stable_histogram_batch
