"""Discrete Gaussian mechanism (Canonne, Kamath and Steinke 2020).

sigma: Theorem 7's delta(epsilon) = delta, root found like diffprivlib's GaussianDiscrete
(bracket [2^j, 2^(j+1)] grown from [1, 2], then bisection).
Sampler: Algorithm 3's rejection from a discrete Laplace, but with t = sigma instead of
floor(sigma) + 1 (the envelope exp(-|y|/t) exp(sigma^2/(2 t^2)) dominates exp(-y^2/(2 sigma^2)) for
every t > 0, so the accepted law is exactly N_Z(0, sigma^2)); the discrete Laplace is the difference
of two i.i.d. geometric variables. Draws go through a child generator seeded from rng.
"""
import math

import numpy as np


def _tail(sigma, x):
    """P[Y > x] for Y ~ N_Z(0, sigma^2)."""
    K = int(math.ceil(60 * sigma + abs(x) + 10))
    k = np.arange(-K, K + 1)
    w = np.exp(-(k.astype(float) ** 2) / (2 * sigma * sigma))
    return w[k > x].sum() / w.sum()


def _delta(sigma, eps, sens):
    a = eps * sigma * sigma / sens
    return _tail(sigma, a - sens / 2) - math.exp(eps) * _tail(sigma, a + sens / 2)


_SIG = {}


def dgauss_sigma(eps, delta, sens):
    key = (eps, delta, sens)
    if key in _SIG:
        return _SIG[key]

    def f(s):
        return _delta(s, eps, sens) - delta

    g0, f0 = 1.0, f(1.0)
    pwr = 1 if f0 > 0 else -1
    g1 = 2.0 ** pwr
    f1 = f(g1)
    while f0 * f1 > 0:
        g0 *= 2.0 ** pwr
        g1 *= 2.0 ** pwr
        f0, f1 = f1, f(g1)
    lo, hi, flo = min(g0, g1), max(g0, g1), (f0 if g0 < g1 else f1)
    while hi - lo > 1e-12 * hi:
        mid = (lo + hi) / 2
        fm = f(mid)
        if (fm > 0) == (flo > 0):
            lo, flo = mid, fm
        else:
            hi = mid
    _SIG[key] = (lo + hi) / 2
    return _SIG[key]


def _sample(g, sigma, n):
    t = sigma
    q = 1.0 - math.exp(-1.0 / t)
    out = np.empty(n, dtype=np.int64)
    todo = np.arange(n)
    while todo.size:
        m = todo.size
        y = g.geometric(q, size=m) - g.geometric(q, size=m)
        acc = g.random(m) < np.exp(-((np.abs(y) - sigma * sigma / t) ** 2) / (2 * sigma * sigma))
        out[todo[acc]] = y[acc]
        todo = todo[~acc]
    return out


def discrete_gaussian(data, *, rng, epsilon, delta, sensitivity):
    sigma = dgauss_sigma(epsilon, delta, int(sensitivity))
    child = np.random.default_rng(rng.integers(2**63))
    return int(float(data)) + int(_sample(child, sigma, 1)[0])


def _batch(data, n, *, rng, epsilon, delta, sensitivity):
    sigma = dgauss_sigma(epsilon, delta, int(sensitivity))
    child = np.random.default_rng(rng.integers(2**63))
    return (int(float(data)) + _sample(child, sigma, n)).astype(np.int64)


discrete_gaussian.batch = _batch
