"""VALID: analytic Gaussian mechanism with sigma found by bisection directly on Balle-Wang's Theorem 8
condition (the smallest sigma with Phi(D/(2s) - eps s/D) - e^eps Phi(-D/(2s) - eps s/D) <= delta; the
left side decreases in s), instead of Algorithm 1's B+/B- root finding, computed in log space
(log_ndtr) so that e^eps * Phi(.) does not overflow at large eps; and N(0,1) noise by Box-Muller from
rng.random() pairs instead of rng.normal. Same sigma (to ~1e-12 relative) and same law N(0, sigma^2 I_p),
hence (epsilon, delta)-DP with the spec's exact profile. Defaults: sigma = 1/0.268051 = 3.7306.
Expected class: pass.
"""
import functools
import math

import numpy as np
from scipy.special import log_ndtr


def _lhs(s, eps, D):
    a = D / (2 * s)
    b = eps * s / D
    t1 = math.exp(float(log_ndtr(a - b)))
    t2 = math.exp(eps + float(log_ndtr(-a - b)))
    return t1 - t2


@functools.lru_cache(maxsize=64)
def _sigma(eps, delta, D):
    lo, hi = 1e-6 * D, D
    while _lhs(hi, eps, D) > delta:
        lo, hi = hi, hi * 2
    while _lhs(lo, eps, D) <= delta:
        lo = lo / 2
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if _lhs(mid, eps, D) > delta:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-14 * hi:
            break
    return hi


def _std_normal(rng, shape):
    size = int(np.prod(shape)) if len(shape) else 1
    h = (size + 1) // 2
    u1 = 1.0 - rng.random(h)   # in (0, 1]
    u2 = rng.random(h)
    rad = np.sqrt(-2.0 * np.log(u1))
    z = np.concatenate([rad * np.cos(2 * np.pi * u2), rad * np.sin(2 * np.pi * u2)])[:size]
    return z.reshape(shape)


def agauss(data, *, rng, epsilon, delta, sensitivity, **kw):
    f = np.atleast_1d(np.asarray(data, dtype=float))
    s = _sigma(float(epsilon), float(delta), float(sensitivity))
    return f + s * _std_normal(rng, f.shape)


def agauss_batch(data, n, *, rng, epsilon, delta, sensitivity, **kw):
    f = np.atleast_1d(np.asarray(data, dtype=float))
    s = _sigma(float(epsilon), float(delta), float(sensitivity))
    return f[None, :] + s * _std_normal(rng, (n, f.size))


agauss.batch = agauss_batch
