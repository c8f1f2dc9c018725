"""gaussian_mechanism_analytic -- VALID VARIANT (per-call only, plain functions).

What it is: f(D) + N(0, sigma^2 I_p) with
  * sigma the smallest sigma with Theorem 8's condition
        Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta) <= delta
    found by bisection on log(sigma) directly on that function (math.erfc for Phi), instead of
    Balle-Wang Algorithm 1's B+/B- branches in u, v: the left side is decreasing in sigma, so
    the root is the same sigma (3.73063 at the defaults, mu = 0.268051);
  * normal deviates from the Marsaglia polar method on rng.random() pairs (both deviates of a
    pair used), instead of rng.normal.
TRUTH: the same law as the spec (N(0, sigma^2) per coordinate, independent), hence exactly
(Delta/sigma)-GDP = the audited curve.  No .batch.
"""
import math

import numpy as np


def _Phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _hs(sigma, eps, sens):
    a = sens / (2.0 * sigma)
    b = eps * sigma / sens
    return _Phi(a - b) - math.exp(eps) * _Phi(-a - b)


def analytic_sigma(eps, delta, sens):
    lo, hi = math.log(sens) - 5.0, math.log(sens) + 5.0
    while _hs(math.exp(lo), eps, sens) <= delta:
        lo -= 5.0
    while _hs(math.exp(hi), eps, sens) > delta:
        hi += 5.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _hs(math.exp(mid), eps, sens) > delta:
            lo = mid
        else:
            hi = mid
    return math.exp(hi)


def _polar_normals(rng, n):
    out = []
    while len(out) < n:
        u = 2.0 * rng.random() - 1.0
        v = 2.0 * rng.random() - 1.0
        s = u * u + v * v
        if s == 0.0 or s >= 1.0:
            continue
        m = math.sqrt(-2.0 * math.log(s) / s)
        out.append(u * m)
        out.append(v * m)
    return out[:n]


def agm(data, *, rng, epsilon=1.0, delta=1e-5, sensitivity=1.0, **_):
    f = np.array(data, dtype=np.float64).reshape(-1)
    sigma = analytic_sigma(float(epsilon), float(delta), float(sensitivity))
    z = np.array(_polar_normals(rng, f.size), dtype=np.float64)
    return f + sigma * z
