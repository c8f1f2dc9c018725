"""Bounded sum (diffprivlib.tools.sum) -- VALID VARIANT: the sum computed in unit-scaled coordinates.

Each record is mapped to u = (clip(x, lower, upper) - lower)/(upper - lower) in [0, 1]; the sum of the u's
has sensitivity 1 under replacing one record, so Lap(1/epsilon) is added in those units, and the release is
mapped back: (sum u + L) (upper - lower) + n lower.  Since (upper - lower) Lap(1/eps) = Lap((upper - lower)/eps)
and (sum u)(upper - lower) + n lower = sum(clip(x)), the release is sum(clip(D)) + Lap((upper - lower)/eps):
the spec's law (up to the last-ulp rounding of the affine maps, which both neighbours go through alike).
One call at a time, no .batch.

TRUTH: the spec's law exactly (Fact BS2); epsilon-DP with loss epsilon on record_lower_to_upper: must pass.
"""
import numpy as np


def bounded_sum(data, *, rng, epsilon, lower, upper, **_):
    width = upper - lower
    u = (np.clip(np.asarray(data, dtype=float).ravel(), lower, upper) - lower) / width
    noisy_units = u.sum() + rng.laplace(0.0, 1.0 / epsilon)
    return float(noisy_units * width + u.size * lower)
