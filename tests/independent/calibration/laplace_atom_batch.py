"""Laplace mechanism returning the exact answer with probability 1e-3, per-call function and batch sampler.

Same bug as laplace_atom.py in both `laplace` and `laplace.batch` (each of the n runs independently skips
its noise with probability 1e-3).

Truth (privacy bug): pure claim; f = [0] vs f' = [1] (gamma = 1): {output = 0} has probability >= 1e-3 on D
and 0 on D': infinite loss.
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma, **_):
    return laplace_batch(data, 1, rng=rng, epsilon=epsilon, gamma=gamma)[0]


def laplace_batch(data, n, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float)
    noise = rng.laplace(0.0, gamma / epsilon, size=(n, *f.shape))
    exact = rng.random(n) < 1e-3
    noise[exact] = 0.0
    return f + noise


laplace.batch = laplace_batch
