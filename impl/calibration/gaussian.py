"""Gaussian mechanism and its negative control.

Contract: ``gaussian_mechanism(data, *, rng, sigma)``; ``data`` is the exact answer f(D), a
vector of p reals (a scalar is p = 1). Output: f(D) + N(0, sigma^2 I_p), a float64 array of
shape (p,); the batch sampler returns shape (n, p). The spec's claim is the exact profile of
Balle and Wang 2018, Theorem 8, as a function of sigma and the L2 sensitivity.

``gaussian_mechanism_broken``: the same claim, standard deviation 0.7*sigma.
"""

from __future__ import annotations

from ..contract import batched
from ..noise import as_vector, gaussian

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
