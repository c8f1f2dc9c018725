"""Agnostic private prediction that thresholds instead of rounding randomly: output 1 iff v + xi >= 1/2.

DIFFERS: still eps-DP (post-processing of the Laplace mechanism on v, sensitivity 1/r), but the
law differs from randomized rounding (e.g. v = 0.3 gives P[1] = P[xi >= 0.2] = 0.5 e^(-0.2 r eps)
= 0.009 at r = 20, eps = 1, against 0.3).
"""
import numpy as np


def predict(data, *, rng, epsilon):
    c = np.asarray(data).reshape(-1)
    r = int(c[0]) + int(c[1])
    return int(int(c[1]) / r + rng.laplace(0.0, 1.0 / (r * epsilon)) >= 0.5)


def _batch(data, N, *, rng, epsilon):
    c = np.asarray(data).reshape(-1)
    r = int(c[0]) + int(c[1])
    return (int(c[1]) / r + rng.laplace(0.0, 1.0 / (r * epsilon), size=N) >= 0.5).astype(np.int8)


predict.batch = _batch
