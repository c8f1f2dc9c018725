"""Laplace mechanism (paper 000, Lemma 2.6) with a discrete path for count-valued answers.

Library habit (diffprivlib picks GeometricTruncated for integer dtypes): when the exact answer
f(D) is integer-valued and the sensitivity gamma is an integer, add two-sided geometric noise
(alpha = exp(-epsilon/gamma), epsilon-DP between integer answers at L1 distance <= gamma) so
counts stay counts; otherwise add Lap(gamma/epsilon). Output: float64 array either way.
Whether the answer was integral is visible in the output: an integer f(D) always gives an
integral release, a neighbour at fractional distance (f(D') = f(D) + 0.5) almost never does.
"""
import numpy as np


def _discrete(f, gamma):
    return bool(np.all(f == np.floor(f))) and float(gamma).is_integer()


def _geo(rng, alpha, size):
    q = 1.0 - alpha
    return (rng.geometric(q, size=size) - rng.geometric(q, size=size)).astype(float)


def laplace(data, *, rng, epsilon, gamma, p=1, beta=0.05, **_):
    f = np.asarray(data, dtype=float).reshape(-1)
    if _discrete(f, gamma):
        return f + _geo(rng, np.exp(-epsilon / gamma), f.shape)
    return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)


def _batch(data, n, *, rng, epsilon, gamma, p=1, beta=0.05, **_):
    f = np.asarray(data, dtype=float).reshape(-1)
    if _discrete(f, gamma):
        return f + _geo(rng, np.exp(-epsilon / gamma), (n, *f.shape))
    return f + rng.laplace(0.0, gamma / epsilon, size=(n, *f.shape))


laplace.batch = _batch
