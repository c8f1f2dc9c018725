"""Exponential mechanism over a finite candidate set, losses (lower is better)
(McSherry and Talwar 2007; Dwork and Roth 2014, Section 3.4), and its negative control.

Contract: ``exponential_mechanism(data, *, rng, epsilon, sensitivity)``; ``data`` is the vector
of candidate losses u_1..u_k, each of sensitivity ``sensitivity``. Output: index i with
P[i] proportional to exp(-epsilon*u_i/(2*sensitivity)), a Python int in [0, k); the batch
sampler returns an int64 array of shape (n,). Both draw from the exact probabilities (a softmax,
computed in log space) by inverting their CDF at a uniform, one uniform per run (the Gumbel-max
trick needs k Gumbel draws per run for the same law). epsilon-DP.

``exponential_mechanism_broken``: drops the factor 2 (P proportional to
exp(-epsilon*u_i/sensitivity)); claimed epsilon, true privacy loss up to 2*epsilon.
"""

from __future__ import annotations

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.noise import as_vector


def _softmax(logits):
    from scipy.special import softmax  # on first use: an audit imports scipy while it samples

    return softmax(logits)


def _logits(data, epsilon, sensitivity, factor):
    u = as_vector(data)
    return -epsilon * u / (factor * sensitivity)


def exponential_mechanism_probabilities(data, *, epsilon, sensitivity):
    """Exact output distribution: softmax(-epsilon*u/(2*sensitivity)), float array of shape (k,)."""
    return _softmax(_logits(data, epsilon, sensitivity, 2.0))


def exponential_mechanism_broken_probabilities(data, *, epsilon, sensitivity):
    """Exact output distribution of the broken variant: softmax(-epsilon*u/sensitivity)."""
    return _softmax(_logits(data, epsilon, sensitivity, 1.0))


def _batch(data, n, *, rng, epsilon, sensitivity):
    p = exponential_mechanism_probabilities(data, epsilon=epsilon, sensitivity=sensitivity)
    return rng.choice(p.size, size=int(n), p=p).astype(np.int64)  # inverse CDF at n uniforms


@batched(_batch)
def exponential_mechanism(data, *, rng, epsilon, sensitivity):
    """Sample i with P[i] ∝ exp(-epsilon*u_i/(2*sensitivity)); int index."""
    p = exponential_mechanism_probabilities(data, epsilon=epsilon, sensitivity=sensitivity)
    return int(rng.choice(p.size, p=p))


def _batch_broken(data, n, *, rng, epsilon, sensitivity):
    p = exponential_mechanism_broken_probabilities(data, epsilon=epsilon, sensitivity=sensitivity)
    return rng.choice(p.size, size=int(n), p=p).astype(np.int64)


@batched(_batch_broken)
def exponential_mechanism_broken(data, *, rng, epsilon, sensitivity):
    """BROKEN on purpose: P[i] ∝ exp(-epsilon*u_i/sensitivity) (factor 2 dropped); int index."""
    p = exponential_mechanism_broken_probabilities(data, epsilon=epsilon, sensitivity=sensitivity)
    return int(rng.choice(p.size, p=p))
