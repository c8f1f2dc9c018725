"""GenericLearner (paper 003, Lemma 16): exponential mechanism over a finite class H.

Speed-up for large classes: hypotheses that agree on every point of the sample have the same
empirical error, so only one representative (the first row) of each behaviour on the sample is scored.
"""
import numpy as np


def _probs(data, epsilon):
    H = np.asarray(data["H"])
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"])
    pts = np.unique(x)
    _, first = np.unique(H[:, pts], axis=0, return_index=True)
    cand = np.sort(first)
    err = (H[cand][:, x] != y[None, :]).sum(axis=1).astype(float)
    logit = -epsilon * err / 2.0
    logit -= logit.max()
    w = np.exp(logit)
    return cand, w / w.sum()


def learner(data, *, rng, epsilon, **_):
    cand, p = _probs(data, epsilon)
    cdf = np.cumsum(p)
    j = min(int(np.searchsorted(cdf, rng.random() * cdf[-1], side="right")), cand.size - 1)
    return int(cand[j])


def _batch(data, n, *, rng, epsilon, **_):
    cand, p = _probs(data, epsilon)
    cdf = np.cumsum(p)
    j = np.minimum(np.searchsorted(cdf, rng.random(n) * cdf[-1], side="right"), cand.size - 1)
    return cand[j].astype(np.int64)


learner.batch = _batch
