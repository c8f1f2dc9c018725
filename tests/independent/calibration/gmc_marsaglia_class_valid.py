"""gaussian_mechanism_classical -- VALID VARIANT.

A class instance with __call__ (per-call only, no .batch).  The noise is drawn with
Marsaglia's polar method from rng.random() uniforms (rejection of points outside the
unit disc, both normals of each accepted pair used), the arithmetic is done on Python
lists, and the result is converted to a float64 array at the end.

TRUTH: the polar method yields exactly i.i.d. N(0,1) pairs, so the output is
f(D) + N(0, sigma^2 I_p) with sigma = sensitivity*sqrt(2 ln(1.25/delta))/epsilon
(5.38312 at the defaults), the spec's law: exactly mu = 0.1858-GDP, delta(0.9) = 3.5e-8.
"""
import math

import numpy as np


class GaussianClassical:
    def _std_normals(self, rng, k):
        out = []
        while len(out) < k:
            u = 2.0 * rng.random() - 1.0
            v = 2.0 * rng.random() - 1.0
            s = u * u + v * v
            if s == 0.0 or s >= 1.0:
                continue
            m = math.sqrt(-2.0 * math.log(s) / s)
            out.append(u * m)
            out.append(v * m)
        return out[:k]

    def __call__(self, data, *, rng, epsilon, delta, sensitivity, **_):
        f = [float(x) for x in np.ravel(np.asarray(data, dtype=float))]
        sigma = sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
        z = self._std_normals(rng, len(f))
        return np.array([fi + sigma * zi for fi, zi in zip(f, z)], dtype=np.float64)


gaussian = GaussianClassical()
