"""PRIVACY BUG (randomness reused): agnostic_private_prediction_corrected whose Laplace noise and rounding coin come
from ONE uniform draw: u ~ U(0,1), xi = F^-1(u) (inverse CDF of Lap(1/(r eps))), p = clip(v + xi, 0, 1), output
1[u < p]. xi alone is exactly Lap(b) and u alone exactly uniform, but they are dependent.

TRUTH: epsilon 1, r = 20 teachers (b = 1/(r eps) = 0.05). Output 1 needs u < v + xi(u); for u < 1/2,
xi(u) = b ln(2u), and u - b ln(2u) >= b (1 - ln(2b)) = 0.165 for every u, so when v <= 0.15 output 1 needs u > 1/2
and then u within ~1e-8 of 1. Pair [17, 3] (v = 0.15) ~ [16, 4] (v = 0.20), one vote moved: P[out = 1] <= 1e-8
against ~0.124 (u in about (0.011, 0.135)); Monte Carlo 1e6 runs a side: 0 against 122,992.
Loss >= ln(0.124/1e-8) ~ 16 against the claim epsilon = 1. (The spec's law: P1(0.15) = 0.150, P1(0.20) = 0.200.)
Expected: claim violated (the law is far from the spec's on every vote row).
"""
import numpy as np


def _lap_inv(u, b):
    # inverse CDF of Laplace(0, b), u in (0, 1)
    return np.where(u < 0.5, b * np.log(2.0 * u), -b * np.log(2.0 * (1.0 - u)))


def _sample(c0, c1, epsilon, u):
    r = c0 + c1
    v = c1 / r
    b = 1.0 / (r * epsilon)
    u = np.clip(u, 1e-300, 1.0 - 2.0 ** -53)
    p = np.clip(v + _lap_inv(u, b), 0.0, 1.0)
    return (u < p).astype(np.int8)


def agnostic(data, *, rng, epsilon):
    c = np.asarray(data).ravel()
    return int(_sample(int(c[0]), int(c[1]), epsilon, rng.random()))


def agnostic_batch(data, n, *, rng, epsilon):
    c = np.asarray(data).ravel()
    return _sample(int(c[0]), int(c[1]), epsilon, rng.random(n))


agnostic.batch = agnostic_batch
