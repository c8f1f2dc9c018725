"""Bounded mean as (noisy clipped sum) / n -- VALID variant, with a .batch.

Release (sum(clip(D, lower, upper)) + L) / n with L ~ Lap((upper - lower)/epsilon) and n = len(D)
(public, fixed under replace_one).  Since L/n ~ Lap((upper - lower)/(n epsilon)), the release is
mean(clip(D)) + Lap(b) with b = (upper-lower)/(n epsilon): exactly the spec's law (Fact BM2).  Only
the floating-point rounding differs from mean + Lap(b) (one division after the addition instead of
before), at the last-ulp level, with no value set that one input can produce and a neighbour cannot.
"""
import numpy as np


def bounded_mean(data, *, rng, epsilon, lower, upper):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    return float((x.sum() + rng.laplace(0.0, (upper - lower) / epsilon)) / x.size)


def bounded_mean_batch(data, n, *, rng, epsilon, lower, upper):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    return (x.sum() + rng.laplace(0.0, (upper - lower) / epsilon, size=n)) / x.size


bounded_mean.batch = bounded_mean_batch
