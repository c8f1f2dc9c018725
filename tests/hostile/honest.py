"""Not an attack: a correct Laplace mechanism (the honest side of the attacks that need one)."""

import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)


def laplace_batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, gamma / epsilon, size=(n, *f.shape))


laplace.batch = laplace_batch
