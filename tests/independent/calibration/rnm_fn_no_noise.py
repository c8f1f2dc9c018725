"""Report noisy max whose per-call function returns the plain argmax, behind a correct batch sampler.

Truth (privacy bug, in the code users call): per call the output is argmax(q), deterministic: q = [1, 0] vs
q' = [0, 1] (each answer moves by 1) give index 0 and index 1 with probability 1 each: infinite loss against
the claimed epsilon. The batch draws argmax(q + Lap(2/eps)), the spec's law.
"""
import numpy as np


def rnm(data, *, rng, epsilon, **_):
    return int(np.argmax(np.asarray(data, dtype=float)))


def rnm_batch(data, n, *, rng, epsilon, **_):
    q = np.asarray(data, dtype=float)
    return np.argmax(q + rng.laplace(0.0, 2 / epsilon, size=(n, q.size)), axis=1).astype(np.int64)


rnm.batch = rnm_batch
