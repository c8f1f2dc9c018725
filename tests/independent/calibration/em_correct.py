"""Exponential mechanism (McSherry-Talwar, loss form): P[i] ~ exp(-eps*loss_i/(2*sens)), log-sum-exp,
sampled by inverse CDF of one uniform."""
import numpy as np


def _logp(losses, epsilon, sensitivity):
    s = -epsilon * np.asarray(losses, dtype=np.float64).reshape(-1) / (2.0 * sensitivity)
    s = s - s.max()
    return s - np.log(np.exp(s).sum())


def em(data, *, rng, epsilon, sensitivity):
    p = np.exp(_logp(data, epsilon, sensitivity))
    c = np.cumsum(p)
    i = int(np.searchsorted(c, rng.random() * c[-1], side="right"))
    return min(i, p.size - 1)


def _batch(data, n, *, rng, epsilon, sensitivity):
    p = np.exp(_logp(data, epsilon, sensitivity))
    c = np.cumsum(p)
    i = np.searchsorted(c, rng.random(n) * c[-1], side="right")
    return np.minimum(i, p.size - 1).astype(np.int64)


em.batch = _batch
