"""Exponential mechanism with the losses cast to int64 first ('losses are error counts';
the cast keeps the log-sum-exp shift exact).  Fractional losses are truncated toward
zero before the 1/(2*sensitivity) scaling, so with a sensitivity below 1 a move of the
loss by 'sensitivity' can change the scaled loss by 1/sensitivity."""
import numpy as np


def _probs(data, epsilon, sensitivity):
    loss = np.asarray(data, dtype=float).reshape(-1).astype(np.int64)
    z = -epsilon * (loss - loss.min()) / (2.0 * sensitivity)
    w = np.exp(z - z.max())
    return w / w.sum()


def em(data, *, rng, epsilon, sensitivity):
    p = _probs(data, epsilon, sensitivity)
    return int(rng.choice(p.size, p=p))


def _batch(data, n, *, rng, epsilon, sensitivity):
    p = _probs(data, epsilon, sensitivity)
    c = np.cumsum(p)
    c[-1] = 1.0
    return np.searchsorted(c, rng.random(n), side="right").astype(np.int64)


em.batch = _batch
