"""Randomized response returning a Python bool always (True = 1, False = 0); bool is a subclass of int
and True == 1, False == 0. One type for every output. Per call only."""
import math

import numpy as np


def rr(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    keep = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    out = bit if rng.random() < keep else 1 - bit
    return bool(out)
