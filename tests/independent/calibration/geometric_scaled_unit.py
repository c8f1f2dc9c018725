"""Geometric mechanism with integer sensitivity, written like the continuous case
(Lap(Delta/eps) = Delta * Lap(1/eps)): draw the unit-sensitivity two-sided geometric noise
(ratio exp(-epsilon)) and multiply it by the sensitivity."""
import numpy as np


def _two_sided(rng, epsilon, size):
    q = 1.0 - np.exp(-epsilon)               # success probability of numpy's geometric
    return rng.geometric(q, size=size) - rng.geometric(q, size=size)


def geometric(data, *, rng, epsilon, sensitivity, p=None):
    f = np.rint(np.asarray(data, dtype=np.float64)).astype(np.int64).reshape(-1)
    z = _two_sided(rng, epsilon, f.shape)
    return f + int(sensitivity) * z


def _batch(data, n, *, rng, epsilon, sensitivity, **_):
    f = np.rint(np.asarray(data, dtype=np.float64)).astype(np.int64).reshape(-1)
    z = _two_sided(rng, epsilon, (int(n), f.size))
    return f[None, :] + int(sensitivity) * z


geometric.batch = _batch
