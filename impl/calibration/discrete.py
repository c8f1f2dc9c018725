"""Integer-valued noise: the geometric (discrete Laplace) mechanism and the discrete Gaussian
mechanism (Canonne, Kamath and Steinke 2020), as IBM diffprivlib 0.6.6 ships them
(``mechanisms.Geometric``, ``mechanisms.GaussianDiscrete``) and OpenDP 0.16 on integer domains.

Geometric contract: ``geometric_mechanism(data, *, rng, epsilon, sensitivity)``; ``data`` is
the exact answer f(D), a vector of p integers passed as a float64 array of integral values (the
audit's stress cases are evaluated formulas, hence floats; convert with ``astype(np.int64)``).
Output: f(D) + Z, Z_i i.i.d. with P[Z_i = k] = (1 - alpha)/(1 + alpha) alpha^|k|,
alpha = exp(-epsilon/sensitivity) (the geometric mechanism of Ghosh, Roughgarden and
Sundararajan, with diffprivlib's non-unit sensitivity), an int64 array of shape (p,); the batch
sampler returns shape (n, p). epsilon-DP for f of L1 sensitivity ``sensitivity``.

Discrete Gaussian contract: ``discrete_gaussian_mechanism(data, *, rng, epsilon, delta,
sensitivity)``; ``data`` is one integer f(D), passed as a Python float of integral value.
Output: f(D) + Y, Y ~ N_Z(0, sigma^2) (P[Y = k] proportional to exp(-k^2/(2 sigma^2)) on the
integers), a Python int; the batch sampler returns an int64 array of shape (n,). sigma solves
delta(epsilon) = delta for Canonne, Kamath and Steinke's Theorem 7 (arXiv:2004.00010v3), the exact
delta of integer sensitivity Delta: delta(epsilon) = P[Y > epsilon sigma^2/Delta - Delta/2]
- e^epsilon P[Y > epsilon sigma^2/Delta + Delta/2], found by bisection as diffprivlib's
``GaussianDiscrete`` finds it (:func:`discrete_gaussian_sigma`).

Sampling law. Z = G1 - G2 with G1, G2 i.i.d. geometric on {1, 2, ...} with success probability
1 - alpha has exactly the two-sided geometric law. The discrete Gaussian is CKS's Algorithm 3
(Section 5.3), vectorised: a candidate Y ~ Lap_Z(t), t = floor(sigma) + 1, drawn as above, is
accepted with probability exp(-(|Y| - sigma^2/t)^2/(2 sigma^2)) (a uniform below it), else
redrawn. The paper's algorithm is exact in rational arithmetic; here the proposal (numpy's
geometric, an inversion of a 53-bit uniform) and the acceptance test are float64, so each
outcome's probability is N_Z(0, sigma^2)'s up to a relative error of order 1e-15, and candidates
beyond about 37 t (probability below 1e-16) are never drawn: the law is within total variation
1e-12 of N_Z(0, sigma^2).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.noise import as_vector


def _integers(data) -> np.ndarray:
    """``data`` as an int64 vector; rejects non-integral values."""
    x = as_vector(data)
    if not np.array_equal(x, np.round(x)):
        raise ValueError(f"data must be integers, got {data!r}")
    return x.astype(np.int64)


def _integer(data) -> int:
    x = _integers(data)
    if x.size != 1:
        raise ValueError(f"data must be one integer, got {data!r}")
    return int(x[0])


def discrete_laplace(rng: np.random.Generator, scale: float, size) -> np.ndarray:
    """Draws from Lap_Z(scale): P[k] proportional to exp(-|k|/scale) on the integers (int64)."""
    if not scale > 0:
        raise ValueError(f"discrete Laplace scale must be > 0, got {scale!r}")
    p = -math.expm1(-1.0 / scale)  # 1 - alpha, alpha = e^(-1/scale)
    return rng.geometric(p, size) - rng.geometric(p, size)


# =========================================================================== geometric mechanism


def _geometric_batch(data, n, *, rng, epsilon, sensitivity):
    f = _integers(data)
    return f + discrete_laplace(rng, sensitivity / epsilon, (int(n), f.size))  # alpha = e^(-epsilon/sensitivity)


@batched(_geometric_batch)
def geometric_mechanism(data, *, rng, epsilon, sensitivity):
    """f(D) + Z, P[Z_i = k] proportional to exp(-epsilon |k|/sensitivity); int64 array of shape (p,)."""
    return _geometric_batch(data, 1, rng=rng, epsilon=epsilon, sensitivity=sensitivity)[0]


# =========================================================================== discrete Gaussian


def discrete_gaussian_pmf(k, sigma: float) -> np.ndarray:
    """P[Y = k] for Y ~ N_Z(0, sigma^2), normalised by summation over |j| <= 39 sigma + 1 (every term beyond
    is below 1e-330, zero in float64)."""
    width = math.ceil(39 * sigma) + 1
    j = np.arange(1, width + 1, dtype=float)
    norm = 1.0 + 2.0 * np.sum(np.exp(-j[::-1] ** 2 / (2 * sigma**2)))  # smallest terms first
    return np.exp(-np.asarray(k, dtype=float) ** 2 / (2 * sigma**2)) / norm


def theorem7_delta(epsilon: float, sigma: float, sensitivity: float) -> float:
    """CKS Theorem 7: the smallest delta with (epsilon, delta)-DP for N_Z(0, sigma^2) noise on an integer
    query of sensitivity Delta: P[Y > epsilon sigma^2/Delta - Delta/2] - e^epsilon P[Y > epsilon sigma^2/Delta
    + Delta/2]; both tails summed over the pmf's window."""
    centre = epsilon * sigma**2 / sensitivity
    k = np.arange(math.floor(centre - sensitivity / 2) + 1, math.ceil(centre + sensitivity / 2 + 39 * sigma) + 2)
    pmf = discrete_gaussian_pmf(k, sigma)
    return float(pmf.sum() - math.exp(epsilon) * pmf[k > centre + sensitivity / 2].sum())


@lru_cache(maxsize=256)
def discrete_gaussian_sigma(epsilon: float, delta: float, sensitivity: float) -> float:
    """A sigma at which :func:`theorem7_delta` equals ``delta``, found as diffprivlib's GaussianDiscrete finds
    it: a bracket [2^j, 2^(j+1)] with a sign change, searched by halving or doubling from [1, 2], then
    bisection (the same midpoints, so the same root where there are several), here to a relative 1e-12
    (diffprivlib stops at 1e-6). delta(sigma) is continuous for an integer sensitivity but not monotone: the
    privacy loss lives on a lattice that moves with sigma, and at epsilon = 3 delta oscillates (delta 1.3e-6 at sigma =
    1.472, 1.6e-6 at 1.516), so other sigmas may meet delta too; at this one the claim holds with equality."""
    from scipy import optimize

    def excess(sigma):
        return theorem7_delta(epsilon, sigma, sensitivity) - delta

    lo, hi = 1.0, 2.0
    while excess(lo) <= 0:
        lo, hi = lo / 2, lo
    while excess(hi) > 0:
        lo, hi = hi, 2 * hi
    return float(optimize.bisect(excess, lo, hi, xtol=1e-14, rtol=1e-12))


def discrete_gaussian(rng: np.random.Generator, sigma: float, n: int) -> np.ndarray:
    """``n`` draws from N_Z(0, sigma^2) (int64) by CKS Algorithm 3, vectorised: rejection from Lap_Z(t)."""
    t = math.floor(sigma) + 1                                   # Alg. 3: t = floor(sigma) + 1
    out = np.empty(int(n), dtype=np.int64)
    pending = np.arange(int(n))
    while pending.size:
        y = discrete_laplace(rng, t, pending.size)              # Alg. 3: Y ~ Lap_Z(t)
        keep = rng.random(pending.size) < np.exp(-(np.abs(y) - sigma**2 / t) ** 2 / (2 * sigma**2))  # C ~ Bern(...)
        out[pending[keep]] = y[keep]                            # Alg. 3: if C = 1, return Y
        pending = pending[~keep]
    return out


def _dgauss_batch(data, n, *, rng, epsilon, delta, sensitivity):
    return _integer(data) + discrete_gaussian(rng, discrete_gaussian_sigma(epsilon, delta, sensitivity), n)


@batched(_dgauss_batch)
def discrete_gaussian_mechanism(data, *, rng, epsilon, delta, sensitivity):
    """f(D) + N_Z(0, sigma^2) with sigma calibrated by CKS Theorem 7 to (epsilon, delta); a Python int."""
    return int(_dgauss_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, sensitivity=sensitivity)[0])
