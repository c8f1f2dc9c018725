"""Agnostic private prediction (paper 002, Corollary 1), sampled in closed form.

Only the label leaves the function, so the label's law is all that matters: with xi ~ Lap(b),
b = 1/(r eps), and v = c1/r in [0, 1],
    Pr[label = 1] = E[clip(v + xi, 0, 1)] = int_0^1 Pr[v + xi > t] dt
                  = v + (b/2) (exp(-v/b) - exp(-(1 - v)/b)).
One uniform per call instead of a Laplace draw and a uniform.
"""
import math

import numpy as np


class ClosedFormAgnostic:
    def _p(self, data, epsilon):
        c0, c1 = int(data[0]), int(data[1])
        r = c0 + c1
        v = c1 / r
        b = 1.0 / (r * epsilon)
        return v + 0.5 * b * (math.exp(-v / b) - math.exp(-(1.0 - v) / b))

    def __call__(self, data, *, rng, epsilon, alpha=None, beta=None, N=None, d=None, **unused):
        return np.int8(rng.random() < self._p(data, epsilon))

    def batch(self, data, n, *, rng, epsilon, **unused):
        return (rng.random(n) < self._p(data, epsilon)).astype(np.int8)


predictor = ClosedFormAgnostic()
