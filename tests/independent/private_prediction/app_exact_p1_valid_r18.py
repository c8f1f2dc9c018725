"""agnostic_private_prediction_corrected, valid variant: the rounded bit is
Bernoulli(P1(v)) with P1(v) = E[clip(v + Lap(b), 0, 1)] in closed form
(P1(v) = v + (b/2)(e^{-v/b} - e^{-(1-v)/b}) for v in [0,1]), drawn with one uniform."""
import math

import numpy as np


def _p1(v, b):
    return v + 0.5 * b * (math.exp(-v / b) - math.exp(-(1.0 - v) / b))


def predict(data, *, rng, epsilon, alpha):
    c0, c1 = int(data[0]), int(data[1])  # noqa: F841
    r = math.ceil(2.0 / (alpha * epsilon))
    v = c1 / r
    b = 1.0 / (r * epsilon)
    return int(rng.random() < _p1(v, b))


def _batch(data, n, *, rng, epsilon, alpha):
    c0, c1 = int(data[0]), int(data[1])  # noqa: F841
    r = math.ceil(2.0 / (alpha * epsilon))
    p = _p1(c1 / r, 1.0 / (r * epsilon))
    return (rng.random(n) < p).astype(np.int8)


predict.batch = _batch
