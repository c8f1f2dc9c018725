"""Laplace prediction of a gamma-stable learner (seed 002 Theorem 3) behind a user's validation decorator
(functools.wraps, so the signature is the inner function's): the decorator rejects non-finite predictions
and non-positive epsilon/gamma with ValueError and counts calls in a module-level counter (state that never
touches the output). Noise rng.laplace(0, gamma/epsilon) fresh per query; scalar in, Python float out;
array in, float64 array out; batch (N,) or (N, q). Law: the spec's."""
import functools

import numpy as np

CALLS = 0


def validated(fn):
    @functools.wraps(fn)
    def wrapper(data, *args, **kwargs):
        global CALLS
        CALLS += 1
        if not np.all(np.isfinite(np.asarray(data, dtype=np.float64))):
            raise ValueError("prediction must be finite")
        if kwargs.get("epsilon", 1.0) <= 0 or kwargs.get("gamma", 1.0) <= 0:
            raise ValueError("epsilon and gamma must be positive")
        return fn(data, *args, **kwargs)
    return wrapper


@validated
def predict(data, *, rng, epsilon, gamma):
    a = np.asarray(data, dtype=np.float64)
    out = a + rng.laplace(0.0, gamma / epsilon, size=a.shape)
    return float(out) if out.ndim == 0 else out


@validated
def _batch(data, N, *, rng, epsilon, gamma):
    a = np.asarray(data, dtype=np.float64)
    return a + rng.laplace(0.0, gamma / epsilon, size=(N,) + a.shape)


predict.batch = _batch
