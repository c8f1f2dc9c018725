import numpy as np


def _grid(f):
    # three significant digits of the answer: 123.4 -> steps of 1, 0.5 -> steps of 0.01
    return 10.0 ** (np.floor(np.log10(np.maximum(np.abs(f), 1.0))) - 2)


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    g = _grid(f)
    return np.round((f + rng.laplace(0.0, gamma / epsilon, f.shape)) / g) * g


def _batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    g = _grid(f)
    return np.round((f + rng.laplace(0.0, gamma / epsilon, (n, *f.shape))) / g) * g


laplace.batch = _batch
