"""Exponential mechanism that forgets the sensitivity: P[i] ~ exp(-eps*loss_i/2).

PRIVACY BUG when sensitivity > 1: the worst loss is eps*sensitivity. At the audit point eps = 0.5,
sensitivity = 2: rare_output_five ([10,2,2,2,2] vs [12,0,0,0,0]) has exact loss 0.979 on output 0
(claim 0.5; the spec's mechanism 0.466); swap_two has loss exactly 0.5 = the claim.
"""
import numpy as np


def _p(data, epsilon):
    s = -epsilon * np.asarray(data, dtype=np.float64).reshape(-1) / 2.0
    w = np.exp(s - s.max())
    return w / w.sum()


def em(data, *, rng, epsilon, sensitivity):
    return int(rng.choice(len(np.atleast_1d(data)), p=_p(data, epsilon)))


def _batch(data, n, *, rng, epsilon, sensitivity):
    p = _p(data, epsilon)
    return rng.choice(p.size, size=n, p=p).astype(np.int64)


em.batch = _batch
