"""Agnostic private prediction with the noise scale typed as eps/r instead of 1/(r eps).

PRIVACY BUG away from eps = 1 (identical at the default eps = 1, and the spec has no further audit
point): at eps = 0.5 (r = 40) the worst label loss over adjacent vote counts is 1.42 > 0.5
(quadrature of E[clip(v + xi)] over v = c/r -> (c+1)/r; the spec's mechanism: 0.474).
"""
import numpy as np


def predict(data, *, rng, epsilon):
    c = np.asarray(data).reshape(-1)
    r = int(c[0]) + int(c[1])
    p = min(1.0, max(0.0, int(c[1]) / r + rng.laplace(0.0, epsilon / r)))
    return int(rng.random() < p)


def _batch(data, N, *, rng, epsilon):
    c = np.asarray(data).reshape(-1)
    r = int(c[0]) + int(c[1])
    p = np.clip(int(c[1]) / r + rng.laplace(0.0, epsilon / r, size=N), 0.0, 1.0)
    return (rng.random(N) < p).astype(np.int8)


predict.batch = _batch
