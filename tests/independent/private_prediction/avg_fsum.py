"""Averaged learner A'(S', x) = (1/r) sum_j A(S'_j, x) (averaged_learner_corrected) -- valid, per-call only.

Written the README's way: a plain function, no batch.  The sum is math.fsum (the correctly rounded
exact sum), r is read from the data; a Python float is returned.
"""
import math


def average(data, *, gamma=None, r=None, n=None, nu=None, beta=None, rng=None):
    vals = [float(v) for v in (data.tolist() if hasattr(data, "tolist") else data)]
    return math.fsum(vals) / len(vals)
