"""Randomized response with a process-wide memo: a bit already answered gets the same reply again.

The author caches the randomized reply per (bit, epsilon) "so that repeated questions cannot average the
noise away". The cache is keyed by the private bit itself, so once both bits have been answered the reply is
a deterministic function of the bit.

Truth (privacy bug): epsilon = 1, keep probability p = e/(1+e) = 0.7311. Three calls in one process on the
bits (0, 1, x): the first two draw r0 and r1; the third returns r_x. The event {o3 = o1 != o2} has
probability P[r0 != r1] = p^2 + (1-p)^2 = 0.6068 when x = 0 and exactly 0 when x = 1: infinite loss for the third
respondent. A single call in a fresh process has the spec's law.
"""
import math

import numpy as np

_REPLIES = {}


def rr(data, *, rng, epsilon, **_):
    bit = int(np.asarray(data).reshape(-1)[0])
    key = (bit, epsilon)
    if key not in _REPLIES:
        keep = rng.random() < math.exp(epsilon) / (1 + math.exp(epsilon))
        _REPLIES[key] = bit if keep else 1 - bit
    return _REPLIES[key]
