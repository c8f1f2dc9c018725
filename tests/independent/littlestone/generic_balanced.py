"""GenericLearner (Lemma 16): exponential mechanism over the rows of H.

"Class-balanced" scores: the error count is re-weighted so that each label class carries
half of the n examples (err_bal = n/2 * (err_+/n_+ + err_-/n_-)), a common fix for skewed
labels, then Pr[h] ~ exp(-epsilon * err_bal(h) / 2) as in Lemma 16.
BUG: with a rare class an example of that class weighs n/(2 n_class) >> 1, so the score's
sensitivity is no longer 1.
"""
import numpy as np


def _scores(data):
    H = np.asarray(data["H"], dtype=np.int64)
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"], dtype=np.int64)
    n = y.size
    wrong = H[:, x] != y[None, :]                     # (|H|, n)
    pos = y == 1
    npos, nneg = int(pos.sum()), int((~pos).sum())
    w = np.empty(n)
    if npos == 0 or nneg == 0:
        w[:] = 1.0
    else:
        w[pos] = n / (2.0 * npos)
        w[~pos] = n / (2.0 * nneg)
    return wrong.astype(float) @ w


def _probs(data, epsilon):
    s = -epsilon * _scores(data) / 2.0
    s -= s.max()
    p = np.exp(s)
    return p / p.sum()


def generic(data, *, rng, epsilon, **_):
    p = _probs(data, epsilon)
    return int(rng.choice(p.size, p=p))


def _batch(data, N, *, rng, epsilon, **_):
    p = _probs(data, epsilon)
    cdf = np.cumsum(p)
    cdf[-1] = 1.0
    return np.searchsorted(cdf, rng.random(N), side="right").astype(np.int64)


generic.batch = _batch
