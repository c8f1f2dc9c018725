"""Randomized response whose output type follows the released VALUE only: 0 -> False (bool),
1 -> numpy.float32(1.0). Values compare equal to 0 and 1; the type is a function of the released bit,
so it is post-processing. Per call only."""
import math

import numpy as np


def rr(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    keep = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    out = bit if rng.random() < keep else 1 - bit
    return np.float32(1.0) if out else False
