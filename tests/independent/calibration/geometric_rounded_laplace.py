"""Geometric mechanism -- DIFFERS: the integer noise is a Laplace draw rounded to the nearest integer.

f + rint(Lap(sensitivity/epsilon)) = rint(f + Lap(sensitivity/epsilon)) for integer f: post-processing of the
Laplace mechanism, hence epsilon-DP.  But rint(Lap(b)) is not the two-sided geometric law:
P[0] = 1 - exp(-1/(2b)), P[k] = sinh(1/(2b)) exp(-|k|/b) for k != 0.  With a .batch.

TRUTH (closed form): at eps = 1, sens = 1: P[0] = 0.3935 against the spec's p_zero = (1-alpha)/(1+alpha) = 0.4621
(P[|k| = 1] 0.1915 each vs 0.1700): the law differs (Fact GM2).  Privacy: for the shift by the sensitivity
the pmf ratio is exactly e^eps on every output at or beyond both answers and 2(1-e^{-eps/2})/(e^{-eps/2}(1-e^{-eps}))
= 2.053 < e at the origin: loss exactly epsilon, the claim holds.  Expected class: differs (exit 3).
"""
import numpy as np


def geometric(data, *, rng, epsilon, sensitivity, **_):
    f = np.asarray(data, dtype=float).astype(np.int64)
    return f + np.rint(rng.laplace(0.0, sensitivity / epsilon, size=f.shape)).astype(np.int64)


def geometric_batch(data, n, *, rng, epsilon, sensitivity, **_):
    f = np.asarray(data, dtype=float).astype(np.int64)
    return f + np.rint(rng.laplace(0.0, sensitivity / epsilon, size=(n, *f.shape))).astype(np.int64)


geometric.batch = geometric_batch
