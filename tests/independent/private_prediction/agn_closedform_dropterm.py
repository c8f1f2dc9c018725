"""Agnostic private prediction (agnostic_private_prediction_corrected) -- closed-form rounding.

Instead of drawing xi ~ Lap(1/(r eps)) and rounding min(1, max(0, v + xi)), sample the label
directly from its closed-form probability.  The derivation only accounted for the clip at 0:
P1(v) = v + E[(-v - xi)^+] = v + (b/2) exp(-v/b), clipped to [0, 1] 'for safety'.
(BUG: the clip at 1 contributes -(b/2) exp(-(1-v)/b); without it P1(1) = 1 + (b/2)e^{-1/b} -> 1, so
Pr[0 | v = 1] = 0 while Pr[0 | v = 1 - 1/r] = 1/r.)
"""
import math

import numpy as np


def _p1(c, epsilon):
    c = np.asarray(c, dtype=np.int64)
    r = int(c[0] + c[1])
    v = c[1] / r
    b = 1.0 / (r * epsilon)
    return min(1.0, max(0.0, v + 0.5 * b * math.exp(-v / b)))


def predict(data, *, rng, epsilon, alpha=None, beta=None, N=None, d=None):
    return int(rng.random() < _p1(data, epsilon))


def _batch(data, n, *, rng, epsilon, alpha=None, beta=None, N=None, d=None):
    return (rng.random(n) < _p1(data, epsilon)).astype(np.int8)


predict.batch = _batch
