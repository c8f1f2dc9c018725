"""Gaussian mechanism with normals from the Box-Muller transform of two uniforms.

Valid variant: sqrt(-2 ln U1) cos(2 pi U2) is exactly N(0, 1) for independent uniforms (U1 in
(0, 1]). Same law as the spec.
"""
import numpy as np


def _normals(rng, shape):
    u1 = 1.0 - rng.random(shape)
    u2 = rng.random(shape)
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)


def gaussian(data, *, rng, sigma, sensitivity):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f + sigma * _normals(rng, f.shape)


def _batch(data, n, *, rng, sigma, sensitivity):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f[None, :] + sigma * _normals(rng, (n, f.size))


gaussian.batch = _batch
