"""gaussian_mechanism_classical -- DIFFERS (law of the released value; the paper's point holds).

The "cheap normal" of old numerical code: a standard normal approximated by the sum of
12 uniforms minus 6 (Irwin-Hall, mean 0, variance 1), scaled by the correct
sigma = sensitivity*sqrt(2 ln(1.25/delta))/epsilon.

TRUTH (exact, mpmath quadrature of the Irwin-Hall density, shift mu = 1/sigma = 0.18577 in
sd units, defaults epsilon = 0.9, delta = 1e-5, sensitivity = 1, pair f = 0 vs f' = 1):
  delta(0.9) = 4.49e-6  (<= 1e-5: Theorem A.1's point still holds; the true Gaussian has 3.5e-8)
  delta(0.5) = 5.12e-4  vs 2.6e-4 for the Gaussian (the spec's mu-GDP curve is exceeded)
  delta(0.2) = 1.48e-2
The noise is bounded (|z| <= 6 sigma = 32.3) and lighter-tailed (P[|z| > 4 sigma] = 1.7e-5
vs 6.3e-5), so the law is not N(0, sigma^2): the output law differs from the spec, and the
audited GDP curve (mu = 0.1858) is violated at epsilon < 0.9, but the paper's claim
(0.9, 1e-5) holds.  Fact G1 holds (lighter tails).
"""
import math

import numpy as np


def gaussian(data, *, rng, epsilon, delta, sensitivity, **_):
    f = np.asarray(data, dtype=np.float64)
    sigma = sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
    z = rng.random(size=f.shape + (12,)).sum(axis=-1) - 6.0
    return f + sigma * z


def _batch(data, n, *, rng, epsilon, delta, sensitivity, **_):
    f = np.asarray(data, dtype=np.float64)
    sigma = sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
    z = rng.random(size=(n,) + f.shape + (12,)).sum(axis=-1) - 6.0
    return f[None, ...] + sigma * z


gaussian.batch = _batch
