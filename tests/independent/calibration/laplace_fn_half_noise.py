"""Laplace mechanism whose per-call function adds half the noise, behind a correct batch sampler.

`laplace` (the function users call) draws Lap(gamma/(2 eps)); `laplace.batch` draws the correct
Lap(gamma/eps) (it was fixed in the fast path only).

Truth (privacy bug, in the code users call): the per-call release f + Lap(gamma/(2 eps)) has loss exactly
2 eps on any pair at L1 distance gamma: 2 against the claimed 1 at the defaults (epsilon = 1, gamma = 1,
f = [0] vs [1], closed form: the log density ratio of two Laplaces of scale 1/2 shifted by 1). The batch is
the spec's law.
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, gamma / (2 * epsilon), size=f.shape)


def laplace_batch(data, n, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, gamma / epsilon, size=(n, *f.shape))


laplace.batch = laplace_batch
