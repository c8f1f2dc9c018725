import sys

import numpy as np


class _Predictor:
    """Per-call only: Laplace noise as the difference of two independent Exp(b) variables."""
    def __call__(self, data, *, rng, epsilon, gamma, L_l=None, sigma=None, q=None, verbose=False):
        child = np.random.default_rng(rng.integers(2**63))
        x = np.asarray(data, dtype=float)
        b = gamma / epsilon
        e1 = child.exponential(b, size=x.shape)
        e2 = child.exponential(b, size=x.shape)
        print("answered", x.size, file=sys.stderr)
        y = x + (e1 - e2)
        return np.float64(y) if y.ndim == 0 else y

predict = _Predictor()
