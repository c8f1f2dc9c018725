"""Agnostic private prediction (agnostic_private_prediction_corrected) -- valid, no Laplace draw.

The label's law is Bernoulli(E[min(1, max(0, v + xi))]), xi ~ Lap(b), b = 1/(r epsilon).  For v in
[0, 1] that expectation is P1(v) = v + (b/2)(exp(-v/b) - exp(-(1-v)/b))
(E[clip] = v + E[(-v - xi)^+] - E[(v + xi - 1)^+], and E[(xi - c)^+] = (b/2) e^{-c/b} for c >= 0),
so one uniform per call is enough.  Same output law as the spec.
"""
import math

import numpy as np


def _p1(c, epsilon):
    c = np.asarray(c, dtype=np.int64)
    r = int(c[0] + c[1])
    v = c[1] / r
    b = 1.0 / (r * epsilon)
    return v + 0.5 * b * (math.exp(-v / b) - math.exp(-(1.0 - v) / b))


def predict(data, *, rng, epsilon, alpha=None, beta=None, N=None, d=None):
    return int(rng.random() < _p1(data, epsilon))


def _batch(data, n, *, rng, epsilon, alpha=None, beta=None, N=None, d=None):
    return (rng.random(n) < _p1(data, epsilon)).astype(np.int8)


predict.batch = _batch
