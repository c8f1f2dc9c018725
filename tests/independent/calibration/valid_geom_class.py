"""Geometric mechanism as a callable class instance.  Each coordinate: Z = 0 with probability
(1 - a)/(1 + a), otherwise a uniform sign times a geometric magnitude on {1, 2, ...} with
P[|Z| = m] proportional to a^m (a = exp(-epsilon/sensitivity)); this is exactly
(1 - a)/(1 + a) a^|k|.  Randomness from a child generator spawned from rng; the per-call output
is a plain Python list of ints."""
import math
import sys


class Geometric:
    def __init__(self):
        self.calls = 0

    @staticmethod
    def _draw(rng, shape, a):
        import numpy as np
        zero = rng.random(shape) < (1 - a) / (1 + a)
        mag = rng.geometric(1 - a, size=shape)
        sign = np.where(rng.random(shape) < 0.5, -1, 1)
        return np.where(zero, 0, sign * mag).astype(np.int64)

    def __call__(self, data, *, rng, epsilon, sensitivity, **kw):
        import numpy as np
        self.calls += 1
        if self.calls == 1:
            print("geometric: first call", file=sys.stderr)
        child = rng.spawn(1)[0]
        f = np.asarray(data, dtype=float).astype(np.int64).ravel()
        z = self._draw(child, f.shape, math.exp(-epsilon / sensitivity))
        return [int(v) for v in f + z]

    def batch(self, data, n, *, rng, epsilon, sensitivity, **kw):
        import numpy as np
        child = np.random.default_rng(int(rng.integers(2 ** 63)))
        f = np.asarray(data, dtype=float).astype(np.int64).ravel()
        return f + self._draw(child, (n, f.size), math.exp(-epsilon / sensitivity))


geometric = Geometric()
