"""Randomized response; the Python type of the release follows the released VALUE only:
released 0 -> built-in int 0, released 1 -> numpy.int64(1). No batch (per-call only)."""
import math

import numpy as np


def rr(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0]) if np.ndim(data) else int(data)
    keep = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    out = bit if rng.random() < keep else 1 - bit
    return np.int64(1) if out == 1 else 0
