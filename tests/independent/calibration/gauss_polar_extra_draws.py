"""Gaussian mechanism (exact profile spec): f + sigma N(0, I), the normals from Marsaglia's polar
rejection method (pairs of rng.uniform(-1, 1) until s = u^2 + v^2 in (0, 1), then u sqrt(-2 ln s / s)),
one scalar at a time in a Python loop; the second normal of each pair is thrown away, and one extra
rng.random() is drawn and ignored after every coordinate (valid: a mechanism may draw more randomness).
Takes the unused keywords sensitivity, epsilon, delta_target, beta through **_. Output: float64 array (p,).
Batch: rng.standard_normal((N, p)) * sigma. Law: f + N(0, sigma^2 I), the spec's."""
import math

import numpy as np


def _polar(rng):
    while True:
        u = rng.uniform(-1.0, 1.0)
        v = rng.uniform(-1.0, 1.0)
        s = u * u + v * v
        if 0.0 < s < 1.0:
            return u * math.sqrt(-2.0 * math.log(s) / s)


def gaussian(data, *, rng, sigma, **_):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    out = np.empty_like(f)
    for i in range(f.size):
        out[i] = f[i] + sigma * _polar(rng)
        rng.random()                      # unused draw
    return out


def _batch(data, N, *, rng, sigma, **_):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f[None, :] + sigma * rng.standard_normal((N, f.size))


gaussian.batch = _batch
