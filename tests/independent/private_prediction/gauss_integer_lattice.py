"""Gaussian prediction of a gamma-stable learner (paper 002 Sec. 3.2.1, corrected sigma).

Integer-valued predictions (vote counts, counts of neighbours, ...) are answered on the integer
lattice: the noisy answer is rounded to the nearest integer, which is post-processing.
"""
import math

import numpy as np


def _sigma(epsilon, delta, gamma):
    return gamma * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon


def predict(data, *, rng, epsilon, delta, gamma, **_):
    f = float(data)
    out = f + _sigma(epsilon, delta, gamma) * rng.standard_normal()
    if f.is_integer():
        out = float(math.floor(out + 0.5))
    return out


def _batch(data, n, *, rng, epsilon, delta, gamma, **_):
    f = float(data)
    out = f + _sigma(epsilon, delta, gamma) * rng.standard_normal(n)
    if f.is_integer():
        out = np.floor(out + 0.5)
    return out


predict.batch = _batch
