"""Bounded sum as a callable class instance, Laplace noise as a difference of
two exponentials (E1 - E2 with E1, E2 i.i.d. Exp(b) is Lap(b)).  Extra keyword
arguments are accepted and ignored."""
import numpy as np


class BoundedSum:
    def __init__(self):
        self.calls = 0

    @staticmethod
    def _clipped_sum(data, lower, upper):
        x = np.clip(np.asarray(data, dtype=np.float64).ravel(), lower, upper)
        return x.sum()

    def __call__(self, data, *, rng, epsilon, lower, upper, **extra):
        self.calls += 1
        b = (upper - lower) / epsilon
        e = rng.exponential(b, size=2)
        return np.float64(self._clipped_sum(data, lower, upper) + (e[0] - e[1]))

    def batch(self, data, n, *, rng, epsilon, lower, upper, **extra):
        b = (upper - lower) / epsilon
        e = rng.exponential(b, size=(2, n))
        return self._clipped_sum(data, lower, upper) + (e[0] - e[1])


bounded_sum = BoundedSum()
