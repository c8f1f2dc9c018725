"""Exponential mechanism (loss form) the way many users write it: probabilities by a max-shifted softmax,
selection by rng.choice(k, p=probs) (numpy's inverse-CDF sampler), returning a numpy int64 scalar. The
'batch' sampler is just a Python loop over the per-call function (slow but the same law, N i.i.d. runs).
Unused keywords via **_. Law: the spec's."""
import numpy as np


def em(data, *, rng, epsilon, sensitivity, **_):
    loss = np.asarray(data, dtype=np.float64).reshape(-1)
    s = -epsilon * loss / (2.0 * sensitivity)
    p = np.exp(s - s.max())
    p /= p.sum()
    return rng.choice(loss.size, p=p)


def _batch(data, N, *, rng, epsilon, sensitivity, **kw):
    return np.array([em(data, rng=rng, epsilon=epsilon, sensitivity=sensitivity) for _ in range(N)], dtype=np.int64)


em.batch = _batch
