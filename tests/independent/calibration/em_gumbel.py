"""Exponential mechanism by the Gumbel-max trick: argmax_i (-eps*loss_i/(2*sens) + G_i), G_i iid Gumbel.

Valid variant: the Gumbel-max argmax has exactly the softmax law of the scores.
"""
import numpy as np


def em(data, *, rng, epsilon, sensitivity):
    s = -epsilon * np.asarray(data, dtype=np.float64).reshape(-1) / (2.0 * sensitivity)
    return int(np.argmax(s + rng.gumbel(size=s.shape)))


def _batch(data, n, *, rng, epsilon, sensitivity):
    s = -epsilon * np.asarray(data, dtype=np.float64).reshape(-1) / (2.0 * sensitivity)
    return np.argmax(s[None, :] + rng.gumbel(size=(n, s.size)), axis=1).astype(np.int64)


em.batch = _batch
