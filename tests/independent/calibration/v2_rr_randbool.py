"""Randomized response; with probability 1/2 (a coin from rng, independent of the data and of the
released bit) the bit is returned as a Python bool, otherwise as an int. Value law exact. Per call."""
import math

import numpy as np


def rr(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    keep = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    out = bit if rng.random() < keep else 1 - bit
    return bool(out) if rng.random() < 0.5 else int(out)
