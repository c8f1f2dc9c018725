"""gaussian_mechanism_analytic -- BUG (privacy, triggered by a property of the INPUT: a sorted vector).

What it is: the valid analytic Gaussian of agm_polar.py (sigma 3.73063 at the defaults, polar
normals) plus a "consistency" step: when the exact answer vector is non-decreasing (cumulative
counts, a CDF, sorted quantiles) the noisy vector is sorted, the rearrangement estimator, which
is more accurate and "post-processing".  But the step is switched on by the private f(D) itself,
so it is not post-processing.  p = 1 (the default) and unsorted inputs get the spec's law.
TRUTH: at the defaults (epsilon 1, delta 1e-5, sensitivity 1) with p = 2, f(D) = (0, 0) vs
f(D') = (0.5, -0.5) (L2 distance 0.707 <= 1): the release is non-decreasing with probability 1
on D, and with probability P[N(0, 2 sigma^2) >= 1] = Phi(-1/(sqrt2 sigma)) = 0.4252 on D', so the
event {out[0] > out[1]} has probability 0 vs 0.5748: infinite loss, delta(eps) >= 0.5748 for
every eps against the claimed curve (delta(1) = 1e-5).  Monte Carlo (2e5 calls a side):
P[out[0] > out[1]] = 0.0 on D, 0.5755 on D' (exact 0.5748).  No .batch.
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
    out = f + sigma * z
    if f.size >= 2 and bool(np.all(np.diff(f) >= 0)):
        out = np.sort(out)          # monotone answers: release a monotone (rearranged) vector
    return out
