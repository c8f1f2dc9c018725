"""Randomized response as a callable object, one call at a time (no batch).

Keep the bit iff a standard logistic variable falls below epsilon:
P[Logistic < eps] = 1/(1 + e^-eps) = e^eps/(1 + e^eps), the textbook keep probability.
"""
import warnings


class RandomizedResponse:
    def __init__(self):
        self.calls = 0

    def __call__(self, data, *, rng, epsilon, **extra):
        self.calls += 1
        if self.calls == 1:
            warnings.warn("randomized response: logistic-threshold sampler in use", stacklevel=2)
        bit = int(round(float(data)))
        keep = rng.logistic() < epsilon
        return bit if keep else 1 - bit


randomized_response = RandomizedResponse()
