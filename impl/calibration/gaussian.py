"""Gaussian mechanism, its negative control, and the two (epsilon, delta) calibrations diffprivlib
0.6.6 ships.

Contract: ``gaussian_mechanism(data, *, rng, sigma)``; ``data`` is the exact answer f(D), a
vector of p reals (a scalar is p = 1). Output: f(D) + N(0, sigma^2 I_p), a float64 array of
shape (p,); the batch sampler returns shape (n, p). The spec's claim is the exact profile of
Balle and Wang 2018, Theorem 8, as a function of sigma and the L2 sensitivity.

``gaussian_mechanism_broken``: the same claim, standard deviation 0.7*sigma.

``gaussian_mechanism_classical(data, *, rng, epsilon, delta, sensitivity)``: the user states
(epsilon, delta, sensitivity); sigma = sensitivity*sqrt(2 ln(1.25/delta))/epsilon (Dwork and
Roth 2014, Theorem A.1, for epsilon < 1; diffprivlib's ``mechanisms.Gaussian``).

``gaussian_mechanism_analytic(data, *, rng, epsilon, delta, sensitivity)``: sigma from Balle and
Wang's Algorithm 1 (the analytic Gaussian mechanism; diffprivlib's ``GaussianAnalytic``), the
smallest sigma whose exact delta(epsilon) (their Theorem 8) is at most delta
(:func:`analytic_sigma`). Same input and output as ``gaussian_mechanism``.
"""

from __future__ import annotations

import math
from functools import lru_cache

from dptestbed.impl.contract import batched
from dptestbed.impl.noise import as_vector, gaussian

BROKEN_FACTOR = 0.7  # negative control: sigma 30% too small


def _batch(data, n, *, rng, sigma):
    f = as_vector(data)
    return f + gaussian(rng, sigma, (int(n), f.size))


@batched(_batch)
def gaussian_mechanism(data, *, rng, sigma):
    """f(D) + N(0, sigma^2)^p; float array of shape (p,)."""
    f = as_vector(data)
    return f + gaussian(rng, sigma, f.shape)


def _batch_broken(data, n, *, rng, sigma):
    return _batch(data, n, rng=rng, sigma=BROKEN_FACTOR * sigma)


@batched(_batch_broken)
def gaussian_mechanism_broken(data, *, rng, sigma):
    """BROKEN on purpose: f(D) + N(0, (0.7*sigma)^2)^p under the claim for sigma."""
    return gaussian_mechanism(data, rng=rng, sigma=BROKEN_FACTOR * sigma)


# =========================================================================== (epsilon, delta) calibrations


def classical_sigma(epsilon, delta, sensitivity):
    """Dwork and Roth 2014, Theorem A.1: sigma = sensitivity*sqrt(2 ln(1.25/delta))/epsilon."""
    return sensitivity * math.sqrt(2 * math.log(1.25 / delta)) / epsilon


@lru_cache(maxsize=256)
def analytic_sigma(epsilon, delta, sensitivity):
    """Balle and Wang 2018, Algorithm 1: with delta_0 = Phi(0) - e^eps Phi(-sqrt(2 eps)), find
    v* = sup{v >= 0: B+(v) <= delta}, B+(v) = Phi(sqrt(eps v)) - e^eps Phi(-sqrt(eps (v + 2))), and
    alpha = sqrt(1 + v*/2) - sqrt(v*/2) when delta >= delta_0; else u* = inf{u >= 0: B-(u) <= delta},
    B-(u) = Phi(-sqrt(eps u)) - e^eps Phi(-sqrt(eps (u + 2))), alpha = sqrt(1 + u*/2) + sqrt(u*/2);
    sigma = alpha*sensitivity/sqrt(2 eps). The root is bracketed by doubling, as the paper suggests,
    then found by Brent's method to a relative 1e-12."""
    from scipy import optimize, special

    if not 0 < delta < 1:  # B+ and B- stay below 1: no root to bracket
        raise ValueError(f"analytic_sigma: delta must be in (0, 1), got {delta}")

    def b(sign, v):  # B+ (sign = +1) or B- (sign = -1), e^eps Phi(.) in log space
        return special.ndtr(sign * math.sqrt(epsilon * v)) - math.exp(
            epsilon + special.log_ndtr(-math.sqrt(epsilon * (v + 2))))

    sign = 1 if delta >= b(1, 0.0) else -1                      # Alg. 1: delta >= delta_0 ?
    lo, hi = 0.0, 1.0
    while (b(sign, hi) - delta) * sign <= 0:                     # B+ increases, B- decreases in v
        lo, hi = hi, 2 * hi
    v = optimize.brentq(lambda x: b(sign, x) - delta, lo, hi, xtol=1e-14, rtol=1e-12)
    alpha = math.sqrt(1 + v / 2) - sign * math.sqrt(v / 2)     # Alg. 1: sqrt(1 + v/2) -+ sqrt(v/2)
    return alpha * sensitivity / math.sqrt(2 * epsilon)          # Alg. 1: sigma = alpha Delta/sqrt(2 eps)


def _classical_batch(data, n, *, rng, epsilon, delta, sensitivity):
    return _batch(data, n, rng=rng, sigma=classical_sigma(epsilon, delta, sensitivity))


@batched(_classical_batch)
def gaussian_mechanism_classical(data, *, rng, epsilon, delta, sensitivity):
    """f(D) + N(0, sigma^2)^p, sigma = sensitivity*sqrt(2 ln(1.25/delta))/epsilon; float array of shape (p,)."""
    return gaussian_mechanism(data, rng=rng, sigma=classical_sigma(epsilon, delta, sensitivity))


def _analytic_batch(data, n, *, rng, epsilon, delta, sensitivity):
    return _batch(data, n, rng=rng, sigma=analytic_sigma(epsilon, delta, sensitivity))


@batched(_analytic_batch)
def gaussian_mechanism_analytic(data, *, rng, epsilon, delta, sensitivity):
    """f(D) + N(0, sigma^2)^p, sigma from Balle and Wang's Algorithm 1; float array of shape (p,)."""
    return gaussian_mechanism(data, rng=rng, sigma=analytic_sigma(epsilon, delta, sensitivity))
