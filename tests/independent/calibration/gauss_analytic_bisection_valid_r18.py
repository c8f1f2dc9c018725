"""gaussian_mechanism_analytic, valid variant: Balle-Wang Algorithm 1 written out (B+/B- branches,
bisection), noise from Box-Muller on rng.random().  Same law as the spec."""
import math

import numpy as np
from scipy.special import log_ndtr, ndtr


def _Phi(x):
    return float(ndtr(x))


def _ePhi(eps, x):            # e^eps * Phi(x), in log space
    return math.exp(eps + float(log_ndtr(x)))


def analytic_sigma(epsilon, delta, sensitivity):
    eps = epsilon
    delta0 = _Phi(0.0) - _ePhi(eps, -math.sqrt(2 * eps))
    if delta >= delta0:
        B = lambda v: _Phi(math.sqrt(eps * v)) - _ePhi(eps, -math.sqrt(eps * (v + 2)))  # noqa: E731
        lo, hi = 0.0, 1.0
        while B(hi) <= delta:
            hi *= 2
        for _ in range(200):          # sup{v : B+(v) <= delta}
            mid = (lo + hi) / 2
            if B(mid) <= delta:
                lo = mid
            else:
                hi = mid
        v = lo
        alpha = math.sqrt(1 + v / 2) - math.sqrt(v / 2)
    else:
        B = lambda u: _Phi(-math.sqrt(eps * u)) - _ePhi(eps, -math.sqrt(eps * (u + 2)))  # noqa: E731
        lo, hi = 0.0, 1.0
        while B(hi) > delta:
            hi *= 2
        for _ in range(200):          # inf{u : B-(u) <= delta}
            mid = (lo + hi) / 2
            if B(mid) <= delta:
                hi = mid
            else:
                lo = mid
        u = hi
        alpha = math.sqrt(1 + u / 2) + math.sqrt(u / 2)
    return alpha * sensitivity / math.sqrt(2 * eps)


def _normal(rng, shape):
    u1 = 1.0 - rng.random(shape)      # (0, 1]
    u2 = rng.random(shape)
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(2 * np.pi * u2)


def gauss(data, *, rng, epsilon, delta, sensitivity, p=None):
    f = np.asarray(data, dtype=float)
    return f + analytic_sigma(epsilon, delta, sensitivity) * _normal(rng, f.shape)


def _batch(data, n, *, rng, epsilon, delta, sensitivity, p=None):
    f = np.asarray(data, dtype=float)
    return f[None, :] + analytic_sigma(epsilon, delta, sensitivity) * _normal(rng, (n, f.size))


gauss.batch = _batch
