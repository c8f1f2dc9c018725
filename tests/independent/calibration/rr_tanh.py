"""Randomized response with the keep probability written as (1 + tanh(eps/2))/2.

Valid variant: (1 + tanh(eps/2))/2 = e^eps/(1 + e^eps) (logistic(eps) = (1 + tanh(eps/2))/2), and the
comparison u < p with u uniform keeps the bit with exactly that probability. Per call, no batch.
"""
import math

import numpy as np


def rr(data, *, rng, epsilon, **_):
    bit = int(np.asarray(data).reshape(-1)[0])
    keep = rng.random() < (1 + math.tanh(epsilon / 2)) / 2
    return bit if keep else 1 - bit
