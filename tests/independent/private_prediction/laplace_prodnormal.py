"""Laplace prediction of a gamma-stable learner (stable_laplace_prediction).

Noise: "a Laplace(b) variate is b times a product of two standard normals" -- a shortcut
that avoids rng.laplace so that the same normal stream can be shared with our Gaussian code.
(BUG: the identity is Lap(b) = b*(Z1*Z2 + Z3*Z4); one product alone has the Bessel-K0
density K0(|x|/b)/(pi*b), which is unbounded at 0.)
"""
import numpy as np


def _noise(rng, b, shape):
    z = rng.standard_normal((2,) + tuple(shape))
    return b * z[0] * z[1]


def predict(data, *, rng, epsilon, gamma, L_l=None, sigma=None):
    a = np.asarray(data, dtype=float)
    out = a + _noise(rng, gamma / epsilon, a.shape)
    return float(out) if out.ndim == 0 else out


def _batch(data, n, *, rng, epsilon, gamma, L_l=None, sigma=None):
    a = np.asarray(data, dtype=float)
    return a + _noise(rng, gamma / epsilon, (n,) + a.shape)


predict.batch = _batch
