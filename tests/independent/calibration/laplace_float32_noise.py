"""Laplace mechanism whose noise is drawn in float64 and stored as float32 before it is added.

Truth (privacy bug): f = [0] vs f' = [1/3] (shift 1/3 <= gamma = 1; epsilon = 1). On D every output is
0 + (a float32 value), so it is exactly representable in float32. On D' the output 1/3 + z keeps the low
bits of the float64 1/3 and was float32-representable in 0 of 10^8 draws (seeded Monte Carlo of the same
computation), so P_D'[float32-representable] < 3.0e-8 (95%, rule of three): loss >= ln(1/3e-8) = 17.3
against the claimed 1. The values themselves are within 6e-8 (relative) of f + Lap(gamma/eps).
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float)
    noise = rng.laplace(0.0, gamma / epsilon, size=f.shape).astype(np.float32)
    return f + noise
