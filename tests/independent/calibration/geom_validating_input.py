"""Geometric (discrete Laplace) mechanism written defensively, as diffprivlib's Geometric is: the input
must be a vector of integers (float64 of integral values is accepted and converted), anything else
(a fraction, NaN, inf, a magnitude beyond 2^53) raises ValueError. Noise: two-sided geometric by sign and
magnitude: 0 with probability (1 - alpha)/(1 + alpha), else a fair sign times rng.geometric(1 - alpha)
(support 1, 2, ...), alpha = exp(-epsilon/sensitivity): P[Z = k] = (1 - alpha)/(1 + alpha) alpha^|k|.
Output int64 (p,), batch (N, p). Law on integer inputs: the spec's."""
import math

import numpy as np


def _ints(data):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    if not np.all(np.isfinite(f)) or np.any(np.abs(f) > 2.0 ** 53) or np.any(f != np.round(f)):
        raise ValueError(f"geometric mechanism: integer input required, got {f!r}")
    return f.astype(np.int64)


def _noise(rng, alpha, size):
    p0 = (1.0 - alpha) / (1.0 + alpha)
    zero = rng.random(size) < p0
    sign = np.where(rng.random(size) < 0.5, 1, -1)
    mag = rng.geometric(1.0 - alpha, size=size)
    return np.where(zero, 0, sign * mag).astype(np.int64)


def geometric(data, *, rng, epsilon, sensitivity):
    f = _ints(data)
    alpha = math.exp(-epsilon / sensitivity)
    return f + _noise(rng, alpha, f.size)


def _batch(data, N, *, rng, epsilon, sensitivity):
    f = _ints(data)
    alpha = math.exp(-epsilon / sensitivity)
    return f[None, :] + _noise(rng, alpha, (N, f.size))


geometric.batch = _batch
