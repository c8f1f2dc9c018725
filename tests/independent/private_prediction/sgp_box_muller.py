"""Gaussian prediction (paper 002 Section 3.2.1, corrected sigma_G = gamma sqrt(2 ln(1.25/delta))/epsilon)
with a hand-written Box-Muller sampler on rng's uniforms, and chatter on stdout.

Z = sqrt(-2 ln U1) cos(2 pi U2), U1 = 1 - rng.random() in (0, 1], U2 = rng.random(), is
exactly N(0, 1) (Box and Muller 1958), so the release A(S,x) + sigma_G Z has the spec's law.
"""
import math
import warnings

import numpy as np


def _z(rng, size):
    u1 = 1.0 - rng.random(size)
    u2 = rng.random(size)
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)


def _sigma(epsilon, delta, gamma):
    if epsilon >= 1:
        warnings.warn("classical Gaussian calibration needs epsilon < 1", stacklevel=2)
    return gamma * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon


def predict(data, *, rng, epsilon, delta, gamma, L_l=1.0, sigma=1.0, k=2, **_):
    a = np.asarray(data, dtype=float)
    s = _sigma(epsilon, delta, gamma)
    out = a + s * _z(rng, a.shape)
    return float(out) if out.ndim == 0 else out


def _batch(data, n, *, rng, epsilon, delta, gamma, L_l=1.0, sigma=1.0, k=2, **_):
    a = np.asarray(data, dtype=float)
    s = _sigma(epsilon, delta, gamma)
    print(f"[sgp_box_muller] drawing {n} predictions, sigma_G = {s:.6g}")
    return a + s * _z(rng, (n, *a.shape))


predict.batch = _batch
