"""geometric_mechanism, privacy bug in the per-call path only (the vectorised .batch is correct).

The per-call function (what users call) has geo_lattice.py's bug: noise Delta * (unit two-sided
geometric with alpha = exp(-eps)), on the lattice Delta*Z; the vectorised batch, written later for
speed, draws the right law (alpha = exp(-eps/Delta)).  At sensitivity 1 the two agree exactly.

Truth (fn): sensitivity = 2, epsilon = 1, f(D) = [0], f(D') = [1]: P_D[output odd] = 0,
P_D'[output odd] = 1: infinite loss.  (The batch alone: exactly the spec.)
"""
import numpy as np


def _unit(rng, a, shape):
    return (rng.geometric(1.0 - a, size=shape) - rng.geometric(1.0 - a, size=shape)).astype(np.int64)


def geometric(data, *, rng, epsilon, sensitivity, p=None):
    f = np.asarray(data, dtype=float).astype(np.int64)
    return f + int(sensitivity) * _unit(rng, np.exp(-epsilon), f.shape)      # the bug


def _batch(data, n, *, rng, epsilon, sensitivity, p=None):
    f = np.asarray(data, dtype=float).astype(np.int64)
    return f[None, :] + _unit(rng, np.exp(-epsilon / sensitivity), (n, *f.shape))


geometric.batch = _batch
