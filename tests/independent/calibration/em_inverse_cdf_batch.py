"""Exponential mechanism by inverse CDF, with a batch sampler that is a faithful vectorisation.

Valid variant: weights exp(-eps (loss_i - min loss)/(2 sens)) (shifting every loss by the same constant leaves
the normalised law unchanged and nothing underflows for the best candidate), normalised; the index is the
first i whose cumulative probability exceeds a uniform draw. The batch draws n uniforms and searches them at
once: the same law, n times.
"""
import numpy as np


def _probabilities(data, epsilon, sensitivity):
    loss = np.asarray(data, dtype=float)
    w = np.exp(-epsilon * (loss - loss.min()) / (2 * sensitivity))
    return w / w.sum()


def em(data, *, rng, epsilon, sensitivity, **_):
    return int(em_batch(data, 1, rng=rng, epsilon=epsilon, sensitivity=sensitivity)[0])


def em_batch(data, n, *, rng, epsilon, sensitivity, **_):
    cdf = np.cumsum(_probabilities(data, epsilon, sensitivity))
    idx = np.searchsorted(cdf, rng.random(n) * cdf[-1], side="right")
    return np.minimum(idx, cdf.size - 1).astype(np.int64)


em.batch = em_batch
