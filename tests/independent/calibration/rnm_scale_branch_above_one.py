"""report_noisy_max, BUG: a branch on the parameter regime: for epsilon > 1 the code switches to the
monotone-query scale 1/epsilon ("at large epsilon the factor 2 only costs accuracy"), keeping 2/epsilon
for epsilon <= 1.

Kind: branch on a parameter regime (epsilon > 1); exact at the defaults (eps = 1) and at eps = 0.5.

TRUTH (exact, numerical integration in truth_b10.py): at epsilon = 3 (the spec's second audit point) the
noise is Lap(1/3), i.e. the correct mechanism at epsilon 6. Pair one_below_rest_above: D = [1,1,1,1,1],
D' = [0,2,2,2,2], output 0: see truth_b10.py output (loss printed there) against the claim 3.
At epsilon <= 1 the law is exactly the spec's (valid there).
"""
import numpy as np


def rnm(data, *, rng, epsilon):
    q = np.asarray(data, dtype=float).ravel()
    scale = 2.0 / epsilon if epsilon <= 1.0 else 1.0 / epsilon     # BUG for epsilon > 1
    return int(np.argmax(q + rng.laplace(0.0, scale, size=q.size)))
