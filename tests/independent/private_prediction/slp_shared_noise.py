"""Laplace prediction that draws one noise value per call and adds it to every query of the call
(the 'noise cached per session' bug).

PRIVACY BUG for multi-query calls (the spec: 'never cached or reused across queries'; Lemma 4's
check asks q queries at once): the differences between answers are exact, so predictions (0, 0)
vs (gamma, 0) give outputs whose difference is 0 vs gamma: infinite loss. A single query has the
spec's law.
"""
import numpy as np


def predict(data, *, rng, epsilon, gamma):
    a = np.asarray(data, dtype=np.float64)
    out = a + rng.laplace(0.0, gamma / epsilon)
    return float(out) if out.ndim == 0 else out


def _batch(data, N, *, rng, epsilon, gamma):
    a = np.asarray(data, dtype=np.float64)
    z = rng.laplace(0.0, gamma / epsilon, size=(N,) + (1,) * a.ndim)
    return a + z


predict.batch = _batch
