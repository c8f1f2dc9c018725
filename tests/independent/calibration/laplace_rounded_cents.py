import numpy as np

CENT = 0.01  # a fixed grid: the release rounded to cents, whatever the answer (post-processing)


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    return np.round((f + rng.laplace(0.0, gamma / epsilon, f.shape)) / CENT) * CENT


def _batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    return np.round((f + rng.laplace(0.0, gamma / epsilon, (n, *f.shape))) / CENT) * CENT


laplace.batch = _batch
