"""Randomized response returning a 0-d numpy int64 array (np.asarray(bit)), one type for every call."""
import math

import numpy as np


def rr(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    keep = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    out = bit if rng.random() < keep else 1 - bit
    return np.asarray(out, dtype=np.int64)
