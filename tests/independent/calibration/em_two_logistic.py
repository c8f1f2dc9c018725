"""Exponential mechanism with a closed form for two candidates.
For K = 2 the mechanism is a Bernoulli: P[0] = sigmoid(eps * (loss_1 - loss_0) / scale).
BUG: the K = 2 path takes scale = sensitivity ('the gap is one query of sensitivity
Delta'), but the gap moves by 2*Delta when the two losses move in opposite directions; the
general path uses the correct 2*Delta.
"""
import numpy as np


def _probs(losses, eps, sens):
    k = losses.size
    if k == 2:
        z = eps * (losses[1] - losses[0]) / sens
        p0 = 1.0 / (1.0 + np.exp(-z)) if z >= 0 else np.exp(z) / (1.0 + np.exp(z))
        return np.array([p0, 1.0 - p0])
    s = -eps * losses / (2.0 * sens)
    s = s - s.max()
    w = np.exp(s)
    return w / w.sum()


def em(data, *, rng, epsilon, sensitivity, **_unused):
    losses = np.asarray(data, dtype=np.float64).reshape(-1)
    p = _probs(losses, epsilon, sensitivity)
    return int(min(np.searchsorted(np.cumsum(p), rng.random(), side="right"), p.size - 1))


def _batch(data, n, *, rng, epsilon, sensitivity, **_unused):
    losses = np.asarray(data, dtype=np.float64).reshape(-1)
    p = _probs(losses, epsilon, sensitivity)
    idx = np.searchsorted(np.cumsum(p), rng.random(n), side="right")
    return np.minimum(idx, p.size - 1).astype(np.int64)


em.batch = _batch
