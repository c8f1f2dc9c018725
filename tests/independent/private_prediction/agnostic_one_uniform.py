"""Agnostic private prediction (Corollary 1): v = c1/r, xi ~ Lap(1/(r eps)), output 1 w.p. clip(v + xi).

"One uniform per answer": the Laplace noise is drawn by inverse CDF from a uniform u, and the
same u is then reused for the randomized rounding (bit = u < clip(v + xi)) to save a draw.
BUG: noise and rounding coin are the same random variable, so the output is a deterministic
function of (v, u) with a very different law.
"""
import numpy as np


def _inv_laplace(u, b):
    return np.where(u < 0.5, b * np.log(2.0 * u), -b * np.log(2.0 * (1.0 - u)))


def agnostic(data, *, rng, epsilon, **_):
    c = np.asarray(data, dtype=float)
    r = c[0] + c[1]
    v = c[1] / r
    b = 1.0 / (r * epsilon)
    u = rng.random()
    with np.errstate(divide="ignore"):
        xi = _inv_laplace(u, b)
    p = min(1.0, max(0.0, v + float(xi)))
    return int(u < p)


def _batch(data, N, *, rng, epsilon, **_):
    c = np.asarray(data, dtype=float)
    r = c[0] + c[1]
    v = c[1] / r
    b = 1.0 / (r * epsilon)
    u = rng.random(N)
    with np.errstate(divide="ignore"):
        xi = _inv_laplace(u, b)
    p = np.clip(v + xi, 0.0, 1.0)
    return (u < p).astype(np.int8)


agnostic.batch = _batch
