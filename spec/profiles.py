"""Privacy-profile functions of the formula grammar (:mod:`.formula`): the quantities a Gaussian-type claim is
stated in, so that a spec states its curve as data.

* ``gdp_delta(eps, mu)``: the delta at epsilon of a mu-GDP mechanism, Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 -
  eps/mu) (Dong, Roth and Su 2022, Corollary 2.13; Balle and Wang 2018, Theorem 8, with mu = Delta/sigma).
* ``gdp_mu(eps, delta)``: the mu at which that delta is ``delta`` (increasing in mu: bisection), the mu of
  Balle and Wang's analytic calibration.
* ``dgauss_delta(eps, sigma, Delta)``: Canonne, Kamath and Steinke 2020, Theorem 7: the exact delta at eps of
  discrete Gaussian N_Z(0, sigma^2) noise on an integer query of sensitivity Delta, P[Y > eps sigma^2/Delta -
  Delta/2] - e^eps P[Y > eps sigma^2/Delta + Delta/2], both tails summed over the pmf's window.
* ``dgauss_sigma(eps, delta, Delta)``: a sigma at which that delta is ``delta``, found as IBM diffprivlib's
  GaussianDiscrete finds it (a bracket [2^j, 2^(j+1)] from [1, 2], then bisection to a relative 1e-12), so the
  spec's sigma is the one such an implementation uses (the delta is not monotone in sigma on the lattice).

Each takes numbers or numpy arrays (evaluated elementwise) and is computed here, independently of the
reference implementations it states the law of.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

WINDOW_SIGMAS = 39  # the discrete Gaussian pmf is summed over this many sigmas beyond the tail's start


def _elementwise(fn):
    def wrapped(*args):
        arrays = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in args))
        out = np.vectorize(lambda *xs: fn(*(float(x) for x in xs)), otypes=[float])(*arrays)
        return out if out.ndim else float(out)
    wrapped.__name__ = fn.__name__
    return wrapped


def _gdp_delta(eps: float, mu: float) -> float:
    from scipy import special

    if mu <= 0:
        return 0.0
    tail = (math.exp(eps) * special.ndtr(-mu / 2 - eps / mu) if eps < 700  # e^eps overflows past eps = 709:
            else math.exp(eps + special.log_ndtr(-mu / 2 - eps / mu)))     # there, the product in logs
    return float(special.ndtr(mu / 2 - eps / mu) - tail)


def _gdp_mu(eps: float, delta: float) -> float:
    if not 0 < delta < 1:
        return math.nan
    lo, hi = 1e-9, 1.0
    while _gdp_delta(eps, hi) < delta:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _gdp_delta(eps, mid) < delta else (lo, mid)
        if hi - lo <= 1e-15 * hi:
            break
    return hi


def _dgauss_pmf(k: np.ndarray, sigma: float) -> np.ndarray:
    span = math.ceil(WINDOW_SIGMAS * sigma) + 1
    norm = np.exp(-np.arange(-span, span + 1) ** 2 / (2 * sigma**2)).sum()
    return np.exp(-k.astype(float) ** 2 / (2 * sigma**2)) / norm


def _dgauss_delta(eps: float, sigma: float, sensitivity: float) -> float:
    centre = eps * sigma**2 / sensitivity
    k = np.arange(math.floor(centre - sensitivity / 2) + 1, math.ceil(centre + sensitivity / 2 + WINDOW_SIGMAS * sigma) + 2)
    pmf = _dgauss_pmf(k, sigma)
    return float(pmf.sum() - math.exp(eps) * pmf[k > centre + sensitivity / 2].sum())


@lru_cache(maxsize=256)
def _dgauss_sigma(eps: float, delta: float, sensitivity: float) -> float:
    from scipy import optimize

    def excess(sigma):
        return _dgauss_delta(eps, sigma, sensitivity) - delta

    lo, hi = 1.0, 2.0
    while excess(lo) <= 0:
        lo, hi = lo / 2, lo
    while excess(hi) > 0:
        lo, hi = hi, 2 * hi
    return float(optimize.bisect(excess, lo, hi, xtol=1e-14, rtol=1e-12))


gdp_delta = _elementwise(_gdp_delta)
gdp_mu = _elementwise(_gdp_mu)
dgauss_delta = _elementwise(_dgauss_delta)
dgauss_sigma = _elementwise(_dgauss_sigma)
