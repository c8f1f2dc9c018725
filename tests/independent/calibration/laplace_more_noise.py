"""Laplace mechanism with 1.5x the noise (scale 1.5*gamma/epsilon), 'to be safe'.

DIFFERS: privacy only improves (loss 2*epsilon/3 on the shift pair), but the law differs from
the spec and the spec's Fact A1 tail bound fails: P[|Lap(1.5b)| > b ln(1/beta)] = beta^(2/3) =
0.136 > beta = 0.05 at p = 1.
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f + rng.laplace(0.0, 1.5 * gamma / epsilon, size=f.shape)


def _batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f[None, :] + rng.laplace(0.0, 1.5 * gamma / epsilon, size=(n, f.size))


laplace.batch = _batch
