"""Geometric mechanism with the exact discrete Laplace sampler of Canonne, Kamath and Steinke
(Algorithm 2), which takes an integer scale t: Lap_Z(t), P[k] proportional to exp(-|k|/t).
The scale sensitivity/epsilon is converted to the integer t the sampler needs."""
import math

import numpy as np


def _t(epsilon, sensitivity):
    return max(1, int(sensitivity / epsilon))


def _lap_z(t, rng):
    # CKS 2020 Algorithm 2 (s = 1)
    while True:
        u = int(rng.integers(0, t))
        if rng.random() >= math.exp(-u / t):
            continue
        v = 0
        while rng.random() < math.exp(-1.0):
            v += 1
        x = u + t * v
        b = int(rng.integers(0, 2))
        if b == 1 and x == 0:
            continue
        return (1 - 2 * b) * x


def geometric(data, *, rng, epsilon, sensitivity, **_):
    f = np.asarray(data, dtype=float).astype(np.int64).ravel()
    t = _t(epsilon, sensitivity)
    return f + np.array([_lap_z(t, rng) for _ in range(f.size)], dtype=np.int64)


def _batch(data, n_runs, *, rng, epsilon, sensitivity, **_):
    f = np.asarray(data, dtype=float).astype(np.int64).ravel()
    t = _t(epsilon, sensitivity)
    q = 1.0 - math.exp(-1.0 / t)      # same law as Algorithm 2: difference of two geometrics
    g1 = rng.geometric(q, size=(n_runs, f.size))
    g2 = rng.geometric(q, size=(n_runs, f.size))
    return (f + (g1 - g2)).astype(np.int64)


geometric.batch = _batch
