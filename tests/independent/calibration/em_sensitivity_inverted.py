"""BUG: the exponential mechanism's scale is written 2/(epsilon*sensitivity) instead of
2*sensitivity/epsilon (sensitivity inverted).  At sensitivity = 1 (the default) it is exact; at
sensitivity = 1/n (normalised errors) it adds far MORE randomness (private, but the accuracy of
Fact EM2 fails); at sensitivity > 1 it is not private: sensitivity=2, epsilon=1: weights
exp(-loss) instead of exp(-loss/4), i.e. a 4*epsilon mechanism; pair [0,2,2] vs [2,0,0]
(loss moves by 2 = sensitivity) gives ln P(0|D)/P(0|D') ~ 3.4 > 1.
Expected class: claim violated (sensitivity != 1).
"""
import numpy as np


def _logp(loss, epsilon, sensitivity):
    scale = 2.0 / (epsilon * sensitivity)          # bug: should be 2*sensitivity/epsilon
    s = -loss / scale
    s = s - s.max()
    return s - np.log(np.exp(s).sum())


def em(data, *, rng, epsilon, sensitivity, **_):
    loss = np.asarray(data, dtype=float)
    p = np.exp(_logp(loss, epsilon, sensitivity))
    return int(rng.choice(loss.size, p=p / p.sum()))


def em_batch(data, n, *, rng, epsilon, sensitivity, **_):
    loss = np.asarray(data, dtype=float)
    p = np.exp(_logp(loss, epsilon, sensitivity))
    return rng.choice(loss.size, size=n, p=p / p.sum()).astype(np.int64)


em.batch = em_batch
