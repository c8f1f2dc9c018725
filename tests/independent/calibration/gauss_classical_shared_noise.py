"""gaussian_mechanism_classical -- BUG (privacy) (tester ta).

One scalar Gaussian draw is broadcast to every coordinate ("the noise is the same scalar
N(0, sigma^2) for the whole vector": rng.normal(0, sigma) without size=p).  For p = 1 this is
exactly the spec's law.  For p >= 2 the output differences o_i - o_j = f_i - f_j carry no noise.

TRUTH: at p = 2 (any epsilon, delta, sensitivity), f(D) = (0, 0) vs f(D') = (s/sqrt2, -s/sqrt2)
(L2 distance s = sensitivity): o1 - o2 = 0 w.p. 1 on D, = sqrt2*s w.p. 1 on D'.  Event
{|o1 - o2| < 1e-9}: probability 1 vs 0: infinite privacy loss, delta needed = 1 (claim
(0.9, 1e-5)).  p = 1 (the spec's default): exact law, nothing to find.
"""
import numpy as np


def gaussian(data, *, rng, epsilon, delta, sensitivity, **_ignored):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    sigma = sensitivity * np.sqrt(2.0 * np.log(1.25 / delta)) / epsilon
    z = rng.normal(0.0, sigma)          # BUG: a scalar, broadcast to all p coordinates
    return f + z


def _batch(data, n, *, rng, epsilon, delta, sensitivity, **_ignored):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    sigma = sensitivity * np.sqrt(2.0 * np.log(1.25 / delta)) / epsilon
    z = rng.normal(0.0, sigma, size=(n, 1))
    return f[None, :] + z


gaussian.batch = _batch
