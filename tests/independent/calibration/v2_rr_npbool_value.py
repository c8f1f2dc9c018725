"""Randomized response; released 1 -> numpy.bool_(True), released 0 -> numpy.int8(0): the type is a
function of the released value only. Per call only."""
import math

import numpy as np


def rr(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    keep = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    out = bit if rng.random() < keep else 1 - bit
    return np.bool_(True) if out else np.int8(0)
