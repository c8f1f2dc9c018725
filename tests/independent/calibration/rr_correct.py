"""Randomized response: keep the bit with probability e^eps/(1+e^eps), else flip it."""
import numpy as np


def rr(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    keep = 1.0 / (1.0 + np.exp(-epsilon))
    return bit if rng.random() < keep else 1 - bit


def _batch(data, n, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    keep = 1.0 / (1.0 + np.exp(-epsilon))
    k = rng.random(n) < keep
    return np.where(k, bit, 1 - bit).astype(np.int8)


rr.batch = _batch
