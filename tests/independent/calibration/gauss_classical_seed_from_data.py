"""gaussian_mechanism_classical, BUG: the noise generator is re-seeded from the data: a child generator
default_rng(rng.integers(1000) + round(1000 * sum|f|)) draws the noise ("so that the same query gets
reproducible noise"). Randomness still comes from `rng` (deterministic under a seed), but a call has only
1000 equally likely noise vectors, and which ones depends on the data.

Kind: RNG reseeded from data (with a small seed space).

TRUTH (exact): defaults (eps=0.9, delta=1e-5, sensitivity=1, p=1, sigma=5.383): D: f=[0.0], D': f=[1.0].
On D the output is one of the 1000 atoms 0 + sigma*z(s), s = 0..999 (z(s) = first standard normal of
default_rng(s)), each with probability 1/1000; on D' one of 1 + sigma*z(s), s = 1000..1999. The two atom sets
are disjoint (checked in truth_b7.py): the event 'output in D's atom set' has probability 1 vs 0, an infinite
privacy loss (delta(eps) = 1 for every eps). Even for data with the same seed offset the output is
an atom of a 1000-point law, not N(f, sigma^2): the law differs on every input.
"""
import math

import numpy as np


def gauss(data, *, rng, epsilon, delta, sensitivity, p, beta):
    f = np.asarray(data, dtype=float)
    sigma = sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
    seed = int(rng.integers(1000)) + int(round(1000 * float(np.abs(f).sum())))   # BUG
    g = np.random.default_rng(seed)
    return f + g.normal(0.0, sigma, size=f.shape)
