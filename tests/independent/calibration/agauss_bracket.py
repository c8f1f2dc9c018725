"""Analytic Gaussian mechanism (Balle and Wang 2018, Algorithm 1).

sigma = alpha * Delta / sqrt(2 epsilon), with alpha from B+(v*) = delta or
B-(u*) = delta solved by bisection.  The bisection works on a fixed bracket
[0, 10] ("u* is a handful for any sensible (epsilon, delta)"): when the root lies
beyond the bracket the bisection silently returns its upper end.
"""
import math

import numpy as np
from scipy.stats import norm

_HI = 10.0


def _bisect(fun, lo, hi, increasing, iters=100):
    # find x with fun(x) = 0 on [lo, hi]
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        v = fun(mid)
        if (v < 0) == increasing:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _sigma(epsilon, delta, sensitivity):
    e = math.exp(epsilon)
    delta0 = norm.cdf(0.0) - e * norm.cdf(-math.sqrt(2.0 * epsilon))
    if delta >= delta0:
        def bplus(v):
            return norm.cdf(math.sqrt(epsilon * v)) - e * norm.cdf(-math.sqrt(epsilon * (v + 2.0))) - delta
        v = _bisect(bplus, 0.0, _HI, increasing=True)
        alpha = math.sqrt(1.0 + v / 2.0) - math.sqrt(v / 2.0)
    else:
        def bminus(u):
            return norm.cdf(-math.sqrt(epsilon * u)) - e * norm.cdf(-math.sqrt(epsilon * (u + 2.0))) - delta
        u = _bisect(bminus, 0.0, _HI, increasing=False)
        alpha = math.sqrt(1.0 + u / 2.0) + math.sqrt(u / 2.0)
    return alpha * sensitivity / math.sqrt(2.0 * epsilon)


def gaussian(data, *, rng, epsilon, delta, sensitivity):
    f = np.asarray(data, dtype=np.float64)
    s = _sigma(epsilon, delta, sensitivity)
    return f + rng.normal(0.0, s, size=f.shape)


def _batch(data, n, *, rng, epsilon, delta, sensitivity):
    f = np.asarray(data, dtype=np.float64)
    s = _sigma(epsilon, delta, sensitivity)
    return f + rng.normal(0.0, s, size=(n, *f.shape))


gaussian.batch = _batch
