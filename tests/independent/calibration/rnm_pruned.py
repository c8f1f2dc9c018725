"""Report noisy max with candidate pruning.

Only candidates within 4 noise scales (8/epsilon) of the best exact answer are
given noise and compete: "anything further behind practically never wins".
"""
import numpy as np


def _alive(q, epsilon):
    scale = 2.0 / epsilon
    return np.flatnonzero(q >= q.max() - 4.0 * scale), scale


def noisy_max(data, *, rng, epsilon):
    q = np.asarray(data, dtype=float).ravel()
    idx, scale = _alive(q, epsilon)
    noisy = q[idx] + rng.laplace(0.0, scale, size=idx.size)
    return int(idx[np.argmax(noisy)])


def _batch(data, n, *, rng, epsilon):
    q = np.asarray(data, dtype=float).ravel()
    idx, scale = _alive(q, epsilon)
    noisy = q[idx] + rng.laplace(0.0, scale, size=(n, idx.size))
    return idx[np.argmax(noisy, axis=1)].astype(np.int64)


noisy_max.batch = _batch
