"""Laplace prediction (Theorem 3) with a process-wide cache of noisy answers keyed by the exact prediction.

The author caches f + noise per input "so that asking the same query twice costs the budget once". A
repeated input gets the old noisy answer back; a new input gets fresh noise.

Truth (privacy bug): epsilon = gamma = 1. Two calls in one process, the first on a = 0, the second on x:
the event {o2 = o1} has probability 1 when x = 0 and 0 when x = gamma = 1 (fresh continuous noise): infinite
loss for the second query (Lemma 4 says two fresh answers cost 2 epsilon). A single call in a fresh process
has the spec's law.
"""
import numpy as np

_ANSWERS = {}


def predict(data, *, rng, epsilon, gamma, **_):
    a = np.asarray(data, dtype=float)
    key = (a.tobytes(), a.shape, epsilon, gamma)
    if key not in _ANSWERS:
        _ANSWERS[key] = a + rng.laplace(0.0, gamma / epsilon, size=a.shape)
    out = _ANSWERS[key].copy()
    return float(out) if out.ndim == 0 else out
