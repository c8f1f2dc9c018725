"""Randomized response with the comparison the wrong way round: reports the complement of the bit
with probability e^eps/(1+e^eps).

DIFFERS: still exactly epsilon-DP (the likelihood ratio is e^eps, the same pair of probabilities
swapped), but the law is not the spec's (P[report = bit] = 1/(1+e^eps) = 0.269 at eps = 1).
"""
import numpy as np


def rr(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    keep = np.exp(epsilon) / (1.0 + np.exp(epsilon))
    return bit if rng.random() > keep else 1 - bit


def _batch(data, n, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    keep = np.exp(epsilon) / (1.0 + np.exp(epsilon))
    return np.where(rng.random(n) > keep, bit, 1 - bit).astype(np.int8)


rr.batch = _batch
