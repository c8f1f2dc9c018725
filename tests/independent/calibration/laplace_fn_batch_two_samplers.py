"""Laplace mechanism whose per-call function and batch sampler draw the noise in two different ways.

Valid variant: `laplace` draws Lap(b) by inverse CDF from one uniform per coordinate
(-b sign(u) ln(1 - 2|u|), u uniform on (-1/2, 1/2)); `laplace.batch` uses rng.laplace. Both are the law
f + Lap(gamma/eps): they agree in law, not draw by draw.
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float)
    u = rng.random(f.shape) - 0.5
    return f - (gamma / epsilon) * np.sign(u) * np.log1p(-2 * np.abs(u))


def laplace_batch(data, n, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, gamma / epsilon, size=(n, *f.shape))


laplace.batch = laplace_batch
