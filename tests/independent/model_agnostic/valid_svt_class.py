"""Sparse vector A_sparseVec (000 Algorithm 1): VALID variant.

A callable class instance; Laplace noise as a difference of two exponentials of the right scale
(Exp(scale s) - Exp(scale s) ~ Lap(s)); returns a python list of ints; writes a line to stderr;
numpy imported lazily; per-call only.
"""
import math
import sys


class SparseVector:
    def __init__(self):
        self.calls = 0

    @staticmethod
    def _lap(rng, s):
        return rng.exponential(s) - rng.exponential(s)

    def __call__(self, data, *, rng, epsilon, delta, T, w, **extra):
        import numpy as np  # noqa: F401  (lazy, unused beyond the check)
        self.calls += 1
        if self.calls == 1:
            print("svt: first call", file=sys.stderr)
        lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon
        w_hat = w + self._lap(rng, lam)
        out, c = [], 0
        for q in data:
            if c > T:
                out.append(-1)
                continue
            if float(q) + self._lap(rng, 2.0 * lam) > w_hat:
                out.append(1)
            else:
                out.append(0)
                c += 1
                w_hat = w + self._lap(rng, lam)
        return out


svt_class = SparseVector()
