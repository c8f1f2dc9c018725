"""Agnostic private prediction (002 Corollary 1, corrected constants): VALID variant.

The mechanism outputs 1 with probability E[min(1, max(0, v + xi))], xi ~ Lap(b), b = 1/(r eps).
That expectation has the closed form P1(v) = v + (b/2)(e^{-v/b} - e^{-(1-v)/b}) for v in [0, 1],
so one uniform suffices: output 1 iff U < P1(v).  Same output law, no Laplace draw.
Per-call only, returns a numpy integer scalar, accepts (and ignores) unknown keywords.
"""
import math


def agnostic_closed_form(data, *, rng, epsilon, verbose=False, **unused):
    import numpy as np  # lazy import
    c0, c1 = (int(v) for v in data)
    r = c0 + c1
    v = c1 / r
    b = 1.0 / (r * epsilon)
    p1 = v + 0.5 * b * (math.exp(-v / b) - math.exp(-(1.0 - v) / b))
    p1 = min(1.0, max(0.0, p1))
    return np.int64(1) if rng.random() < p1 else np.int64(0)
