"""geometric_mechanism, privacy bug: noise for sensitivity Delta drawn as Delta * (unit geometric).

Engineer's reasoning: "Lap(Delta/eps) = Delta * Lap(1/eps), so scale the unit-sensitivity
discrete Laplace by Delta".  The noise then lives on the lattice Delta*Z, alpha = exp(-eps).
At sensitivity = 1 it is exactly the spec.  At sensitivity >= 2 a move of 1 (allowed: L1 <= Delta)
puts the two outputs on disjoint residues mod Delta: infinite privacy loss.
"""
import numpy as np


def _unit(rng, eps, shape):
    a = np.exp(-eps)
    g1 = rng.geometric(1.0 - a, size=shape)
    g2 = rng.geometric(1.0 - a, size=shape)
    return (g1 - g2).astype(np.int64)


def geometric(data, *, rng, epsilon, sensitivity, p=None):
    f = np.asarray(data, dtype=float).astype(np.int64)
    return f + int(sensitivity) * _unit(rng, epsilon, f.shape)


def _batch(data, n, *, rng, epsilon, sensitivity, p=None):
    f = np.asarray(data, dtype=float).astype(np.int64)
    return f[None, :] + int(sensitivity) * _unit(rng, epsilon, (n, *f.shape))


geometric.batch = _batch
