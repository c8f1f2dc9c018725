"""Randomized response with an 'asymptotic' flip probability for large epsilon: to avoid
exp overflow the flip probability 1/(1+e^eps) is replaced, for eps >= 4, by a
(mis-remembered) tail expansion exp(-eps)/2 -- half the true flip probability.
For eps < 4 the exact 1/(1+e^eps) is used."""
import math

import numpy as np


def _flip_prob(epsilon):
    if epsilon >= 4.0:
        return 0.5 * math.exp(-epsilon)
    return 1.0 / (1.0 + math.exp(epsilon))


def rr(data, *, rng, epsilon):
    bit = int(data)
    return 1 - bit if rng.random() < _flip_prob(epsilon) else bit


def _batch(data, n, *, rng, epsilon):
    bit = int(data)
    flip = rng.random(n) < _flip_prob(epsilon)
    return np.where(flip, 1 - bit, bit).astype(np.int8)


rr.batch = _batch
