"""gaussian_mechanism_analytic -- VALID VARIANT (per-call only, Box-Muller, direct Theorem 8 root).

Differences from Balle-Wang Algorithm 1 / diffprivlib GaussianAnalytic:
  * sigma is NOT computed via B+/B-, alpha: it is the root in sigma of Theorem 8's condition
    Phi(D/(2s) - eps s/D) - e^eps Phi(-D/(2s) - eps s/D) = delta, by bisection on log(sigma)
    (Theorem 8's left side is strictly decreasing in sigma, so the smallest sigma satisfying
    the iff condition IS this root, i.e. the same sigma as Algorithm 1).
    Phi via math.erfc (accurate in the tails).
  * noise: Box-Muller from rng.random() pairs (exact N(0,1) law), built in a Python list,
    the spare deviate is discarded.
TRUTH: f + N(0, sigma^2 I_p) with the analytic sigma (3.73063 at eps=1, delta=1e-5, D=1):
exactly mu = D/sigma = 0.268051-GDP, i.e. (eps, delta)-DP on the whole curve; Fact G1 holds.
"""
import math

import numpy as np


def _Phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _lhs(s, eps, D):
    return _Phi(D / (2 * s) - eps * s / D) - math.exp(eps) * _Phi(-D / (2 * s) - eps * s / D)


def _sigma(eps, delta, D):
    lo, hi = math.log(D) - 30.0, math.log(D) + 30.0
    for _ in range(300):
        mid = 0.5 * (lo + hi)
        if _lhs(math.exp(mid), eps, D) > delta:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-14:
            break
    return math.exp(hi)


def mech(data, *, rng, epsilon=1.0, delta=1e-5, sensitivity=1.0, **_ignored):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    s = _sigma(float(epsilon), float(delta), float(sensitivity))
    out = []
    for v in f:
        u1 = 1.0 - rng.random()  # (0, 1]
        u2 = rng.random()
        z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
        out.append(float(v) + s * z)
    return np.array(out, dtype=np.float64)
