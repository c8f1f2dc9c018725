"""Laplace mechanism with Lap(b) sampled as the difference of two independent Exp(b) variables.

Valid variant: if E1, E2 ~ Exp(scale b) are independent, E1 - E2 ~ Lap(b) exactly (characteristic
function 1/(1 + b^2 t^2)). Same law as the spec, so it must pass.
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    b = gamma / epsilon
    return f + (rng.exponential(b, size=f.shape) - rng.exponential(b, size=f.shape))


def _batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    b = gamma / epsilon
    e1 = rng.exponential(b, size=(n, f.size))
    e2 = rng.exponential(b, size=(n, f.size))
    return f[None, :] + (e1 - e2)


laplace.batch = _batch
