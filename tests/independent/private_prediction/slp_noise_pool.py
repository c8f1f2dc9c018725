"""Laplace prediction (Theorem 3) serving its noise from a pool of 4,096 draws that wraps around.

For speed the first call draws 4,096 standard Laplace values from its rng; every call takes the next ones
(a module-level counter) scaled by gamma/eps, and the counter wraps to the start of the pool when it runs
out instead of drawing a new pool.

Truth (privacy bug): epsilon = gamma = 1, one query per call. Calls k and k + 4096 of a process use the same
noise. For their inputs (a, a) vs (a, a + gamma) the difference o_(k+4096) - o_k is 0 vs gamma with
probability 1 each: infinite loss for the later query. In a process that has made 4,096 calls, each output is
a deterministic function of the input and the earlier outputs. The first 4,096 calls have the spec's law.
"""
import numpy as np

_POOL = []
_NEXT = [0]


def predict(data, *, rng, epsilon, gamma, **_):
    a = np.asarray(data, dtype=float)
    if not _POOL:
        _POOL.extend(rng.laplace(0.0, 1.0, size=4096))
    k = max(a.size, 1)
    idx = (_NEXT[0] + np.arange(k)) % len(_POOL)
    _NEXT[0] = (_NEXT[0] + k) % len(_POOL)
    out = a + (gamma / epsilon) * np.asarray(_POOL)[idx].reshape(a.shape)
    return float(out) if out.ndim == 0 else out
