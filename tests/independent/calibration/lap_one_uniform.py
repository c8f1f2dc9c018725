"""Laplace mechanism with an inverse-CDF sampler that saves a uniform.

Each noise coordinate is drawn from ONE uniform u: its sign is (u < 1/2) and its
magnitude -b*log(u).  (The textbook sampler needs the magnitude -b*log(2u) on the
positive branch and -b*log(2(1-u)) on the negative one; here the same u decides
both, so the positive branch only ever sees u < 1/2, i.e. magnitudes > b*ln 2,
and the negative branch only u >= 1/2, i.e. magnitudes <= b*ln 2.)
"""
import numpy as np


def _noise(u, b):
    sign = np.where(u < 0.5, 1.0, -1.0)
    return sign * (-b * np.log(u))


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    b = gamma / epsilon
    u = rng.random(size=f.shape)
    u = np.where(u == 0.0, np.nextafter(0.0, 1.0), u)
    return f + _noise(u, b)


def _laplace_batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    b = gamma / epsilon
    u = rng.random(size=(n, *f.shape))
    u = np.where(u == 0.0, np.nextafter(0.0, 1.0), u)
    return f + _noise(u, b)


laplace.batch = _laplace_batch
