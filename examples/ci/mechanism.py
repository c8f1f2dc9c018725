"""An implementation of the Laplace mechanism, as a user's project would hold it: the file the
workflow and the pre-commit hook check against dptestbed's spec ``laplace_mechanism``."""

import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    """One release: every random number comes from ``rng``; the spec's parameters are keywords."""
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)


def laplace_batch(data, n, *, rng, epsilon, gamma):
    """n independent releases at once (optional; audits draw 10x more samples with it)."""
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, gamma / epsilon, size=(n, *f.shape))


laplace.batch = laplace_batch
