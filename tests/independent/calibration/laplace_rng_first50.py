"""Laplace mechanism that uses the given rng for its first 50 calls and the global numpy state after.

CONTRACT BUG (law unchanged): the noise is Lap(gamma/epsilon) either way, so privacy and utility
hold, but runs are no longer a function of rng (a user's 'caching' or a leftover np.random call).
Counted as 'differs': the checker should reject it as non-reproducible. No batch sampler, so
the checker has to call the function many times.
"""
import numpy as np

_calls = 0


def laplace(data, *, rng, epsilon, gamma):
    global _calls
    _calls += 1
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    src = rng if _calls <= 50 else np.random
    return f + src.laplace(0.0, gamma / epsilon, size=f.shape)
