"""Gaussian mechanism with 'norm-stabilised' noise.

Shortcut: the noise vector g ~ N(0, sigma^2 I_p) has norm close to sigma*sqrt(p), so to
cut the variance of the released norm we rescale g to have exactly that norm.
BUG: the noise is then uniform on the sphere of radius sigma*sqrt(p); for p = 1 it is
+-sigma, a two-point law.
"""
import numpy as np


def _noise(shape, p, sigma, rng):
    g = rng.standard_normal(shape)
    norm = np.linalg.norm(g, axis=-1, keepdims=True)
    return g / norm * (sigma * np.sqrt(p))


def gaussian(data, *, rng, sigma, sensitivity, **_unused):
    f = np.asarray(data, dtype=float).reshape(-1)
    return f + _noise(f.shape, f.size, sigma, rng)


def _batch(data, n, *, rng, sigma, sensitivity, **_unused):
    f = np.asarray(data, dtype=float).reshape(-1)
    return f + _noise((n, f.size), f.size, sigma, rng)


gaussian.batch = _batch
