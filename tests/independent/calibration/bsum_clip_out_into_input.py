"""bounded_sum, BUG: clipping in place: x = np.asarray(data) does not copy a float64 array, and
np.clip(x, lower, upper, out=x) then overwrites the caller's records with their clipped values.

Kind: in-place mutation of the input (a contract bug; every single output has the correct law).

TRUTH: output law exactly sum(clip(D)) + Lap((upper-lower)/epsilon) (valid privacy, epsilon exactly
as claimed); side effect: a float64 ndarray input with a record outside [lower, upper] (e.g. the stress
case [lower + 1000*(upper-lower)] ...) is modified, so a caller that reuses it sees clipped data
(on a list input, np.asarray copies and nothing is mutated).
"""
import numpy as np


def bsum(data, *, rng, epsilon, lower, upper, n):
    x = np.asarray(data, dtype=float).ravel()          # a view when data is already float64
    np.clip(x, lower, upper, out=x)                     # BUG: writes into the caller's array
    return float(x.sum() + rng.laplace(0.0, (upper - lower) / epsilon))
