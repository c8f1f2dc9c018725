"""Agnostic private prediction (paper 002, Corollary 1, self-consistent constants) without drawing
the Laplace variable: only the rounded label is released, so it is sampled from its exact
marginal.

With v = c_1/r and xi ~ Lap(b), b = 1/(r epsilon), the released label is 1 with probability
E[clip(v + xi, 0, 1)] = v + E[(-(v + xi))_+] - E[(v + xi - 1)_+]
                     = v + (b/2) (exp(-v/b) - exp(-(1 - v)/b))      for v in [0, 1],
the spec's P1(v). One uniform per call; r = c_0 + c_1 (the teachers present).
"""
import math

import numpy as np


def _p1(data, epsilon):
    c = [int(t) for t in np.asarray(data).reshape(-1)]
    r = c[0] + c[1]
    v = c[1] / r
    b = 1.0 / (r * epsilon)
    return v + 0.5 * b * (math.exp(-v / b) - math.exp(-(1.0 - v) / b))


def predict(data, *, rng, epsilon, **unused):
    return int(rng.random() < _p1(data, epsilon))


def _batch(data, n, *, rng, epsilon, **unused):
    return (rng.random(n) < _p1(data, epsilon)).astype(np.int8)


predict.batch = _batch
