"""Sparse vector with every Laplace variable drawn as a difference of two exponentials, no batch
sampler, generator-style loop.

VALID VARIANT: same law as Algorithm 1 (Exp(b) - Exp(b) ~ Lap(b)).
"""
import math

import numpy as np


def _lap(rng, b):
    return rng.exponential(b) - rng.exponential(b)


def svt(data, *, rng, epsilon, delta, T, w):
    lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon
    answers = []
    bottoms = 0
    threshold = w + _lap(rng, lam)
    for q in np.asarray(data, dtype=np.float64).reshape(-1):
        if bottoms > T:
            answers.append(-1)
            continue
        if q + _lap(rng, 2 * lam) > threshold:
            answers.append(1)
        else:
            answers.append(0)
            bottoms += 1
            threshold = w + _lap(rng, lam)
    return np.array(answers, dtype=np.int8)
