"""Laplace mechanism with the input's parity in the last mantissa bit, per-call function and batch sampler.

Same bug as laplace_parity_bit.py, in both `laplace` and `laplace.batch` (a faithful vectorisation).

Truth (privacy bug): f = [0] vs f' = [1] (gamma = 1): the last mantissa bit of every output is 0 on D and 1
on D': disjoint supports, infinite loss against the claimed 1.
"""
import numpy as np


def _stamp(out, f):
    parity = np.uint64(int(np.rint(f.sum())) & 1)
    bits = out.view(np.uint64)
    return ((bits & ~np.uint64(1)) | parity).view(np.float64)


def laplace(data, *, rng, epsilon, gamma, **_):
    return laplace_batch(data, 1, rng=rng, epsilon=epsilon, gamma=gamma)[0]


def laplace_batch(data, n, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float)
    return _stamp(f + rng.laplace(0.0, gamma / epsilon, size=(n, *f.shape)), f)


laplace.batch = laplace_batch
