"""Geometric mechanism: two-sided geometric noise as the difference of two
one-sided geometric variables, drawn from a child generator seeded from rng.

If G1, G2 are i.i.d. with P[G = k] = (1 - a) a^(k-1), k >= 1 (numpy's geometric with
success probability 1 - a), then P[G1 - G2 = k] = (1 - a)/(1 + a) a^|k|, the
two-sided geometric law with a = exp(-epsilon/sensitivity).
"""
import numpy as np


def _child(rng):
    return np.random.default_rng(int(rng.integers(2**63)))


def _draw(f, shape, rng, epsilon, sensitivity):
    child = _child(rng)
    q = -np.expm1(-epsilon / sensitivity)  # 1 - alpha
    z = child.geometric(q, size=shape) - child.geometric(q, size=shape)
    return np.rint(f).astype(np.int64) + z.astype(np.int64)


def geometric(data, *, rng, epsilon, sensitivity):
    f = np.asarray(data, dtype=np.float64)
    return _draw(f, f.shape, rng, epsilon, sensitivity)


def _batch(data, n, *, rng, epsilon, sensitivity):
    f = np.asarray(data, dtype=np.float64)
    return _draw(f, (n, *f.shape), rng, epsilon, sensitivity)


geometric.batch = _batch
