"""Laplace mechanism as a callable class instance, per call only (no .batch).
Noise b*log(U1/U2), U1, U2 uniform on (0, 1]: log U ~ -Exp(1), so log U1 - log U2 is the
difference of two independent Exp(1) variables, i.e. Laplace(0, 1). Exactly Lap(b)^p.
"""
import sys


class LaplaceMechanism:
    calls = 0

    def __call__(self, data, *, rng, epsilon, gamma, verbose=False, **extra):
        import numpy as np  # lazy import
        f = np.array(data, dtype=float, copy=True).reshape(-1)
        b = gamma / epsilon
        u1 = 1.0 - rng.random(f.size)    # in (0, 1]
        u2 = 1.0 - rng.random(f.size)
        type(self).calls += 1
        if verbose:
            print("laplace call", type(self).calls, file=sys.stderr)
        return f + b * np.log(u1 / u2)


laplace = LaplaceMechanism()
