"""Discrete Gaussian mechanism -- VALID VARIANT: inverse-CDF table sampler instead of rejection sampling.

sigma as the spec (Theorem 7's delta(epsilon) = delta; diffprivlib's bracket from [1, 2] doubled, then bisection
to a relative 1e-12: 3.740485 at the default).  The noise magnitude |Y| is drawn by inverse CDF from the table
P[|Y| = 0] = w_0/Z, P[|Y| = k] = 2 w_k/Z (w_k = exp(-k^2/(2 sigma^2)), k <= 40 sigma + 60, Z = w_0 + 2 sum w_k),
and a fair sign is attached (0 keeps its sign-free mass): P[Y = y] = w_|y|/Z, the discrete Gaussian.  The mass
cut off beyond 40 sigma is below exp(-800), zero in double precision; the table's cumulative sums lose
probabilities below ~1e-16 per magnitude in the far tail, symmetrically on both sides.  Per call and a .batch.

TRUTH: the law N_Z(0, sigma^2) (Fact DG1) up to 1e-16 per cell; privacy exactly the spec's profile: must pass.
"""
import functools
import math

import numpy as np


def _thm7_delta(eps, sigma, sens):
    w_max = int(math.ceil(40 * sigma)) + sens + 10
    k = np.arange(-w_max, w_max + 1)
    w = np.exp(-(k.astype(float) ** 2) / (2.0 * sigma * sigma))
    z = w.sum()
    a = eps * sigma ** 2 / sens - sens / 2.0
    b = eps * sigma ** 2 / sens + sens / 2.0
    return w[k > a].sum() / z - math.exp(eps) * w[k > b].sum() / z


@functools.lru_cache(maxsize=64)
def _table(eps, delta, sens):
    lo, hi = 1.0, 2.0
    while _thm7_delta(eps, hi, sens) > delta:
        lo, hi = hi, 2.0 * hi
    while (hi - lo) / hi > 1e-12:
        mid = (lo + hi) / 2.0
        if _thm7_delta(eps, mid, sens) > delta:
            lo = mid
        else:
            hi = mid
    sigma = hi
    mags = np.arange(0, int(math.ceil(40 * sigma)) + 60)
    w = np.exp(-(mags.astype(float) ** 2) / (2.0 * sigma * sigma))
    w[1:] *= 2.0
    cdf = np.cumsum(w)
    cdf /= cdf[-1]
    return mags, cdf


def _sample(n, rng, eps, delta, sens):
    mags, cdf = _table(float(eps), float(delta), int(sens))
    u = rng.random(size=n)
    m = mags[np.minimum(np.searchsorted(cdf, u, side="right"), mags.size - 1)]
    sign = np.where(rng.random(size=n) < 0.5, -1, 1)
    return (sign * m).astype(np.int64)


def discrete_gaussian(data, *, rng, epsilon, delta, sensitivity):
    return int(round(float(data))) + int(_sample(1, rng, epsilon, delta, sensitivity)[0])


def discrete_gaussian_batch(data, n, *, rng, epsilon, delta, sensitivity):
    return int(round(float(data))) + _sample(n, rng, epsilon, delta, sensitivity)


discrete_gaussian.batch = discrete_gaussian_batch
