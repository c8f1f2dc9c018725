"""Laplace prediction (paper 002, Theorem 3) with a "fast" inverse-CDF Laplace sampler.

Shortcut: instead of rng.laplace, the noise is drawn by inverting the Laplace CDF at a
uniform taken from 16 random bits (u = (k + 0.5) / 2**16, k uniform in 0..65535), which
"is plenty of resolution for a noise term" and keeps the inversion away from log(0).
The noise therefore takes only 65536 values: the release is A(S,x) + a_k, an atom of mass
2**-16 at each point, and the atoms of two neighbouring predictions do not overlap.
"""
import numpy as np

_BITS = 16
_M = 1 << _BITS


def _noise(rng, b, size):
    k = rng.integers(0, _M, size=size)
    u = (k + 0.5) / _M - 0.5                      # in (-1/2, 1/2)
    return -b * np.sign(u) * np.log1p(-2.0 * np.abs(u))


def predict(data, *, rng, epsilon, gamma, L_l=1.0, sigma=0.25, **_):
    a = np.asarray(data, dtype=float)
    b = gamma / epsilon
    out = a + _noise(rng, b, a.shape)
    return float(out) if out.ndim == 0 else out


def _batch(data, n, *, rng, epsilon, gamma, L_l=1.0, sigma=0.25, **_):
    a = np.asarray(data, dtype=float)
    b = gamma / epsilon
    return a + _noise(rng, b, (n, *a.shape))


predict.batch = _batch
