"""Laplace mechanism whose per-call function returns the exact answer, behind a correct batch sampler.

`laplace` returns f(D) unchanged (a debugging shortcut left in); `laplace.batch` draws f + Lap(gamma/eps).

Truth (privacy bug, in the code users call): the per-call release is deterministic: f = [0] vs f' = [1]
(gamma = 1) give the outputs 0 and 1 with probability 1 each, infinite loss against the claimed 1. The batch
is the spec's law.
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma, **_):
    return np.array(data, dtype=float)


def laplace_batch(data, n, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, gamma / epsilon, size=(n, *f.shape))


laplace.batch = laplace_batch
