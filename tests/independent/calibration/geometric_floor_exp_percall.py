"""Geometric mechanism, per call only (no .batch), as a callable class instance.
floor(E / lam) with E ~ Exp(1), lam = epsilon/sensitivity, is geometric on {0, 1, ...}
with P[G >= k] = exp(-k lam) = alpha^k; the difference of two independent copies is the
two-sided geometric P[Z = k] = (1 - alpha)/(1 + alpha) alpha^|k|."""


class Geometric:
    def __init__(self):
        self.calls = 0

    def __call__(self, data, *, rng, epsilon, sensitivity, p=None, **unused):
        import numpy as np
        self.calls += 1
        f = np.rint(np.asarray(data, dtype=np.float64)).astype(np.int64).reshape(-1)
        lam = float(epsilon) / float(sensitivity)
        e = rng.standard_exponential(size=(2, f.size))
        g = np.floor(e / lam).astype(np.int64)
        return f + (g[0] - g[1])


geometric = Geometric()
