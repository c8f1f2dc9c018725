"""Private release via distance to instability, A_stab, standalone setting (seed 000,
Algorithm 2 = seed 004, Algorithm 1; Smith and Thakurta 2013).

Contract: ``distance_to_instability(data, *, rng, epsilon, delta)``.
- ``data`` = [label, dist]: ``label`` = f(D), an integer class label other than -1; ``dist`` =
  dist_f(D), the true distance to instability (a non-negative number of sensitivity 1);
- Gamma = log(1/delta)/epsilon (Theorem 3.2);
- output: ``label`` if dist + Lap(1/epsilon) > Gamma, else -1 (bottom); a Python int; the batch
  sampler returns an int64 array of shape (n,).
Closed form (notes §3.3): P[release | dist = d] = exp(-epsilon*(Gamma - d))/2 for d <= Gamma.
"""

from __future__ import annotations

import math

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.noise import laplace

BOTTOM = -1


def stability_threshold(epsilon, delta):
    """Theorem 3.2: Gamma = log(1/delta)/epsilon (natural log)."""
    return math.log(1.0 / delta) / epsilon


def _unpack(data):
    x = np.asarray(data, dtype=float).reshape(-1)
    if x.size != 2 or not np.all(np.isfinite(x)):
        raise ValueError(f"distance_to_instability: data must be [label, dist], got {data!r}")
    label, dist = x
    if label != int(label) or int(label) == BOTTOM:
        raise ValueError(f"distance_to_instability: label must be an integer other than {BOTTOM}, got {label!r}")
    return int(label), float(dist)


def _batch(data, n, *, rng, epsilon, delta):
    label, dist = _unpack(data)
    dist_hat = dist + laplace(rng, 1.0 / epsilon, int(n))
    return np.where(dist_hat > stability_threshold(epsilon, delta), label, BOTTOM).astype(np.int64)


@batched(_batch)
def distance_to_instability(data, *, rng, epsilon, delta):
    """A_stab: release the label iff dist + Lap(1/epsilon) > log(1/delta)/epsilon, else -1."""
    label, dist = _unpack(data)
    Gamma = stability_threshold(epsilon, delta)              # Theorem 3.2: Gamma = log(1/delta)/epsilon
    dist_hat = dist + laplace(rng, 1.0 / epsilon)            # Alg. 2 step 1: dist_hat <- dist_f(D) + Lap(1/epsilon)
    return label if dist_hat > Gamma else BOTTOM            # Alg. 2 step 2: output f(D) if dist_hat > Gamma, else bottom
