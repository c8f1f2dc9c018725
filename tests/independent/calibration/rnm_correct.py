"""Report noisy max: argmax_i (q_i + Lap(2/eps))."""
import numpy as np


def rnm(data, *, rng, epsilon):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    return int(np.argmax(q + rng.laplace(0.0, 2.0 / epsilon, size=q.shape)))


def _batch(data, n, *, rng, epsilon):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    return np.argmax(q[None, :] + rng.laplace(0.0, 2.0 / epsilon, size=(n, q.size)), axis=1).astype(np.int64)


rnm.batch = _batch
