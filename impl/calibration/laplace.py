"""Laplace mechanism (seed 000, Lemma 2.6) and its negative control.

Contract: ``laplace_mechanism(data, *, rng, epsilon, gamma)``; ``data`` is the exact answer
f(D), a vector of p reals (a scalar is treated as p = 1); ``gamma`` is the L1 global sensitivity
of f (Definition 2.5). Output: f(D) + Lap(gamma/epsilon)^p, a float64 array of shape (p,);
the batch sampler returns shape (n, p).

``laplace_mechanism_broken``: same claim, noise scale 30% too small (0.7*gamma/epsilon); its true
privacy loss on a shift by gamma is epsilon/0.7 ~ 1.43*epsilon.
"""

from __future__ import annotations

from dptestbed.impl.contract import batched
from dptestbed.impl.noise import as_vector, laplace

BROKEN_FACTOR = 0.7  # negative control: the scale is 30% too small


def _batch(data, n, *, rng, epsilon, gamma):
    f = as_vector(data)
    return f + laplace(rng, gamma / epsilon, (int(n), f.size))  # row k: one run's f(D) + b


@batched(_batch)
def laplace_mechanism(data, *, rng, epsilon, gamma):
    """f(D) + b with b ~ Lap(gamma/epsilon)^p (Lemma 2.6); float array of shape (p,)."""
    f = as_vector(data)
    b = laplace(rng, gamma / epsilon, f.shape)  # Lemma 2.6: b ~ Lap(gamma/epsilon)^p
    return f + b


def _batch_broken(data, n, *, rng, epsilon, gamma):
    f = as_vector(data)
    return f + laplace(rng, BROKEN_FACTOR * gamma / epsilon, (int(n), f.size))


@batched(_batch_broken)
def laplace_mechanism_broken(data, *, rng, epsilon, gamma):
    """BROKEN on purpose: f(D) + Lap(0.7*gamma/epsilon)^p, claimed epsilon-DP (it is epsilon/0.7-DP)."""
    f = as_vector(data)
    return f + laplace(rng, BROKEN_FACTOR * gamma / epsilon, f.shape)
