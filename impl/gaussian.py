"""Gaussian mechanism (Dwork and Roth 2014, Theorem A.1) and its negative control.

Contract: ``gaussian_mechanism(data, *, rng, epsilon, delta, sensitivity)``; ``data`` is the
exact answer f(D), a vector of p reals (a scalar is p = 1); ``sensitivity`` is the L2 global
sensitivity of f. Output: f(D) + N(0, sigma^2 I_p) with
sigma = sensitivity*sqrt(2*log(1.25/delta))/epsilon, a float64 array of shape (p,); the batch
sampler returns shape (n, p). Theorem A.1 proves (epsilon, delta)-DP for 0 < epsilon < 1.

``gaussian_mechanism_broken``: same claim, sigma 30% too small (0.7*sigma). Note: the classical
calibration is loose, so the broken variant violates its (epsilon, delta) claim only slightly
(at epsilon = 0.5, delta = 1e-5 its exact epsilon at that delta is ~0.52); the noise-scale
calibration check is what must catch it.
"""

from __future__ import annotations

import math

from .contract import batched
from .noise import as_vector, gaussian

BROKEN_FACTOR = 0.7  # negative control: sigma 30% too small


def gaussian_sigma(epsilon, delta, sensitivity):
    """Dwork-Roth Theorem A.1: sigma = sensitivity*sqrt(2 ln(1.25/delta))/epsilon."""
    return sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon


def _batch(data, n, *, rng, epsilon, delta, sensitivity):
    f = as_vector(data)
    return f + gaussian(rng, gaussian_sigma(epsilon, delta, sensitivity), (int(n), f.size))


@batched(_batch)
def gaussian_mechanism(data, *, rng, epsilon, delta, sensitivity):
    """f(D) + N(0, sigma^2)^p, sigma from Theorem A.1; float array of shape (p,)."""
    f = as_vector(data)
    sigma = gaussian_sigma(epsilon, delta, sensitivity)  # Theorem A.1: c = sqrt(2 ln(1.25/delta)), sigma = c*Delta_2/epsilon
    return f + gaussian(rng, sigma, f.shape)


def _batch_broken(data, n, *, rng, epsilon, delta, sensitivity):
    f = as_vector(data)
    sigma = BROKEN_FACTOR * gaussian_sigma(epsilon, delta, sensitivity)
    return f + gaussian(rng, sigma, (int(n), f.size))


@batched(_batch_broken)
def gaussian_mechanism_broken(data, *, rng, epsilon, delta, sensitivity):
    """BROKEN on purpose: f(D) + N(0, (0.7*sigma)^2)^p, same (epsilon, delta) claim."""
    f = as_vector(data)
    return f + gaussian(rng, BROKEN_FACTOR * gaussian_sigma(epsilon, delta, sensitivity), f.shape)
