"""Geometric (discrete Laplace) mechanism, noise "scaled by the sensitivity" as for Laplace.

For the Laplace mechanism Lap(Delta/epsilon) = Delta * Lap(1/epsilon), so the unit-sensitivity
sampler is reused: Z = Delta * G with G two-sided geometric at alpha = exp(-epsilon). Each
coordinate then has P[Z = Delta k] proportional to exp(-epsilon |Delta k| / Delta): the right
weights, but only on multiples of Delta. For Delta = 1 this is exactly the geometric mechanism;
for Delta >= 2 the noise lives on the lattice Delta*Z and the residue of the output mod Delta
reveals the residue of the true answer.
"""
import numpy as np


def _g(rng, alpha, size):
    q = 1.0 - alpha
    return rng.geometric(q, size=size) - rng.geometric(q, size=size)


def geometric(data, *, rng, epsilon, sensitivity, p=None, **_):
    f = np.asarray(data, dtype=float).astype(np.int64).reshape(-1)
    alpha = np.exp(-epsilon)                       # unit-sensitivity noise ...
    return f + int(sensitivity) * _g(rng, alpha, f.shape)   # ... scaled by Delta


def _batch(data, n, *, rng, epsilon, sensitivity, p=None, **_):
    f = np.asarray(data, dtype=float).astype(np.int64).reshape(-1)
    alpha = np.exp(-epsilon)
    return f + int(sensitivity) * _g(rng, alpha, (n, *f.shape))


geometric.batch = _batch
