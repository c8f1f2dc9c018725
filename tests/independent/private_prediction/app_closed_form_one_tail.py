"""agnostic_private_prediction_corrected: the closed-form sampler with the upper
clipping term dropped ('e^{-(1-v)/b} is negligible'): P1(v) = v + (b/2) e^{-v/b},
capped at 1. Exact near v = 0, but P[0] = 0 at v = 1 where the spec has b/2."""
import math

import numpy as np


def _p1(v, b):
    return min(1.0, v + 0.5 * b * math.exp(-v / b))


def predict(data, *, rng, epsilon, alpha):
    c0, c1 = int(data[0]), int(data[1])  # noqa: F841
    r = math.ceil(2.0 / (alpha * epsilon))
    return int(rng.random() < _p1(c1 / r, 1.0 / (r * epsilon)))


def _batch(data, n, *, rng, epsilon, alpha):
    c0, c1 = int(data[0]), int(data[1])  # noqa: F841
    r = math.ceil(2.0 / (alpha * epsilon))
    p = _p1(c1 / r, 1.0 / (r * epsilon))
    return (rng.random(n) < p).astype(np.int8)


predict.batch = _batch
