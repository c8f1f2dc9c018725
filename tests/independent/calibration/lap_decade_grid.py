"""Laplace mechanism that reports 4 significant digits of the answer's magnitude.

The release is rounded to a grid whose step is chosen from the magnitude of the
exact answer f (4 significant digits: step = 10^(floor(log10 max(|f|, 1)) - 3)),
so that a count of 123456 is shown as 123500-ish and a rate of 0.5 as 0.501.
"""
import numpy as np


def _step(f):
    mag = np.floor(np.log10(np.maximum(np.abs(f), 1.0)))
    return 10.0 ** (mag - 3.0)


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    step = _step(f)
    y = f + rng.laplace(0.0, gamma / epsilon, size=f.shape)
    return np.round(y / step) * step


def _laplace_batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    step = _step(f)
    y = f + rng.laplace(0.0, gamma / epsilon, size=(n, *f.shape))
    return np.round(y / step) * step


laplace.batch = _laplace_batch
