"""Stable histogram (Lemma 15), with singleton pruning for long-tailed lists.

Lists with many distinct ids (log files, hashes) are mostly singletons. A singleton passes
tau = 1 + (2/eps) ln(1/delta) only with probability delta/2, so for long-tailed lists (more than
64 distinct ids) the count-1 ids are pruned before noising: this saves one Laplace draw per
singleton and only makes the release rarer.
"""
import numpy as np

LONG_TAIL = 64


def _tau(epsilon, delta):
    return 1.0 + (2.0 / epsilon) * np.log(1.0 / delta)


def stable_histogram(data, *, rng, epsilon, delta, **_unused):
    return _batch(data, 1, rng=rng, epsilon=epsilon, delta=delta)[0]


def _batch(data, n_runs, *, rng, epsilon, delta, **_unused):
    x = np.ravel(np.asarray(data)).astype(np.int64)
    n = x.size
    ids, counts = np.unique(x, return_counts=True)
    if ids.size > LONG_TAIL:
        ids, counts = ids[counts > 1], counts[counts > 1]
    out = np.zeros((n_runs, n, 2))
    out[:, :, 0] = -1.0
    m = ids.size
    if m == 0:
        return out
    noisy = counts[None, :] + rng.laplace(0.0, 2.0 / epsilon, size=(n_runs, m))
    keep = noisy >= _tau(epsilon, delta)
    order = np.argsort(~keep, axis=1, kind="stable")      # released first, ascending id
    kk = np.take_along_axis(keep, order, 1)
    out[:, :m, 0] = np.where(kk, ids[order].astype(float), -1.0)
    out[:, :m, 1] = np.where(kk, np.minimum(1.0, np.take_along_axis(noisy, order, 1) / n), 0.0)
    return out


stable_histogram.batch = _batch
