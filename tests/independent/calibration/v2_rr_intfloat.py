"""Randomized response whose output type follows the released VALUE only: 0 -> int 0,
1 -> numpy.float32(1.0) (no bools). Per call only."""
import math

import numpy as np


def rr(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    keep = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    out = bit if rng.random() < keep else 1 - bit
    return np.float32(1.0) if out else 0
