"""Randomized response, valid variant, per call only (no .batch): forced response.
With probability q = 2/(1+e^eps) the answer is a fresh fair coin, else the true bit:
P[report = bit] = 1 - q/2 = e^eps/(1+e^eps).  Randomness from a child generator derived
from rng; returns a numpy integer scalar; logs to stderr now and then."""
import sys


class ForcedResponse:
    def __init__(self):
        self.calls = 0

    def __call__(self, data, *, rng, epsilon, **unused):
        import math

        import numpy as np
        child = np.random.default_rng(rng.integers(2**63))
        self.calls += 1
        if self.calls == 1:
            print("forced response: first call", file=sys.stderr)
        bit = int(data)
        q = 2.0 / (1.0 + math.exp(epsilon))
        if child.random() < q:
            return np.int64(child.integers(0, 2))
        return np.int64(bit)


rr = ForcedResponse()
