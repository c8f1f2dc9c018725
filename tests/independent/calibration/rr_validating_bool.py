"""Randomized response written defensively: the input must be one bit (0/1, True/False, 0.0/1.0, or a
length-1 array of one); anything else raises ValueError. Keep the bit iff rng.random() < e^eps/(1 + e^eps),
computed as 1/(1 + e^-eps); the result is computed as a numpy bool (bit XOR flip) and returned as a Python
int. Batch: int8 (N,). Law: the spec's."""
import math

import numpy as np


def _bit(data):
    a = np.asarray(data).reshape(-1)
    if a.size != 1 or a[0] not in (0, 1):
        raise ValueError(f"randomized response: one bit required, got {data!r}")
    return bool(a[0])


def rr(data, *, rng, epsilon):
    b = _bit(data)
    keep = 1.0 / (1.0 + math.exp(-epsilon))
    flip = not (rng.random() < keep)
    return int(np.bool_(b) ^ np.bool_(flip))


def _batch(data, N, *, rng, epsilon):
    b = _bit(data)
    keep = 1.0 / (1.0 + math.exp(-epsilon))
    flip = rng.random(N) >= keep
    return (np.bool_(b) ^ flip).astype(np.int8)


rr.batch = _batch
