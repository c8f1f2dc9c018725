"""Online query release (Algorithm 3) keeping a process-wide table of its constants, Laplace by inverse CDF.

Valid variant: lam = sqrt(32 T ln(2/delta))/eps and w = 2 lam ln(2m/delta) are memoised per (epsilon, delta,
T, m) in a module-level dict (state that depends on public parameters only, so a warm and a fresh process
give the same law); Laplace(b) drawn as -b sign(u) ln(1 - 2|u|), u uniform on (-1/2, 1/2), which is the
Laplace law. Top iff dist + Lap(2 lam) > w + Lap(lam), bottom re-draws the threshold, halt after T + 1
bottoms. Per call, no batch.
"""
import math

import numpy as np

_CONSTANTS = {}


def _constants(epsilon, delta, T, m):
    key = (epsilon, delta, T, m)
    if key not in _CONSTANTS:
        lam = math.sqrt(32 * T * math.log(2 / delta)) / epsilon
        _CONSTANTS[key] = (lam, 2 * lam * math.log(2 * m / delta))
    return _CONSTANTS[key]


def _laplace(rng, b):
    u = rng.random() - 0.5
    return -b * math.copysign(1.0, u) * math.log1p(-2 * abs(u))


def oqr(data, *, rng, epsilon, delta, T, m, **_):
    rows = np.asarray(data, dtype=float).reshape(-1, 2)
    lam, w = _constants(epsilon, delta, T, m)
    out = np.full(rows.shape[0], -2, dtype=np.int64)
    c = 0
    w_hat = w + _laplace(rng, lam)
    for i, (label, dist) in enumerate(rows):
        if c > T:
            break
        if dist + _laplace(rng, 2 * lam) > w_hat:
            out[i] = int(label)
        else:
            out[i] = -1
            c += 1
            w_hat = w + _laplace(rng, lam)
    return out
