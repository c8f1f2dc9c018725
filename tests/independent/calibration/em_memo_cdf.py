"""Exponential mechanism (loss form) with a memoised table: the normalised CDF of
Pr[i] proportional to exp(-epsilon loss_i/(2 sensitivity)) (log-sum-exp) is cached across calls in a dict
keyed by (the bytes of the loss vector, epsilon, sensitivity), a deterministic function of its key, so no
state carries information between different inputs; sampling by the inverse CDF, searchsorted of
rng.random() (side='right', clipped to the last index). Accepts a list of losses. Returns a Python int;
batch int64 (N,). Unused keywords via **_. Law: the spec's."""
import numpy as np

_MEMO = {}


def _cdf(data, epsilon, sensitivity):
    loss = np.ascontiguousarray(np.asarray(data, dtype=np.float64).reshape(-1))
    key = (loss.tobytes(), float(epsilon), float(sensitivity))
    c = _MEMO.get(key)
    if c is None:
        s = -epsilon * loss / (2.0 * sensitivity)
        s = s - s.max()
        p = np.exp(s)
        c = np.cumsum(p / p.sum())
        if len(_MEMO) > 1024:
            _MEMO.clear()
        _MEMO[key] = c
    return c


def em(data, *, rng, epsilon, sensitivity, **_):
    c = _cdf(data, epsilon, sensitivity)
    return int(min(np.searchsorted(c, rng.random() * c[-1], side="right"), c.size - 1))


def _batch(data, N, *, rng, epsilon, sensitivity, **_):
    c = _cdf(data, epsilon, sensitivity)
    return np.minimum(np.searchsorted(c, rng.random(N) * c[-1], side="right"), c.size - 1).astype(np.int64)


em.batch = _batch
