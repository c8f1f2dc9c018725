"""Geometric (discrete Laplace) mechanism by sign-magnitude rejection (Canonne, Kamath, Steinke 2020,
Algorithm 2 style) -- VALID variant, with a .batch.

Per coordinate: U = G - 1 with G ~ numpy Geometric(1 - alpha) on {1, 2, ...}, so
P[U = u] = (1 - alpha) alpha^u, u >= 0; B ~ Bernoulli(1/2); reject (B = 1, U = 0) and redraw;
Z = U if B = 0 else -U.  Before rejection P[Z = 0] = (1-alpha)/2 and P[Z = z] = (1-alpha) alpha^|z|/2
for z != 0; i.e. proportional to alpha^|z| for every integer z.  Rejection only renormalises, so
P[Z = z] = (1-alpha)/(1+alpha) alpha^|z| with alpha = exp(-epsilon/sensitivity): exactly the
spec's two-sided geometric law (Fact GM2), independently per coordinate.  Output f(D) + Z as int64.
Acceptance probability (1+alpha)/2 >= 1/2 per draw, so the loops end quickly.
"""
import numpy as np


def _draw(shape, rng, alpha):
    out = np.empty(shape, dtype=np.int64)
    todo = np.ones(shape, dtype=bool)
    while todo.any():
        k = int(todo.sum())
        u = rng.geometric(1.0 - alpha, size=k).astype(np.int64) - 1
        neg = rng.random(k) < 0.5
        ok = ~(neg & (u == 0))
        z = np.where(neg, -u, u)
        idx = np.flatnonzero(todo)[ok]
        out.flat[idx] = z[ok]
        todo.flat[idx] = False
    return out


def geometric(data, *, rng, epsilon, sensitivity):
    f = np.rint(np.asarray(data, dtype=float)).astype(np.int64).ravel()
    alpha = np.exp(-epsilon / sensitivity)
    return f + _draw(f.shape, rng, alpha)


def geometric_batch(data, n, *, rng, epsilon, sensitivity):
    f = np.rint(np.asarray(data, dtype=float)).astype(np.int64).ravel()
    alpha = np.exp(-epsilon / sensitivity)
    return f[None, :] + _draw((n, f.size), rng, alpha)


geometric.batch = geometric_batch
