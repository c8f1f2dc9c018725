"""GenericLearner (Lemma 16): exponential mechanism over the rows of H.

Error rates are reported to 0.1% (3 decimals), as in the training logs, and the
score is rebuilt from the rounded rate.
"""
import numpy as np


def _probs(data, epsilon):
    H = np.asarray(data["H"])
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"])
    mistakes = H[:, x] != y[None, :]
    rate = np.round(mistakes.mean(axis=1), 3)        # error rate to 0.1%
    score = rate * x.size                             # back to counts
    logw = -epsilon * score / 2.0
    logw = logw - logw.max()
    w = np.exp(logw)
    return w / w.sum()


def generic_learner(data, *, rng, epsilon, alpha=None, beta=None, n=None, H_size=None, **kw):
    p = _probs(data, epsilon)
    return int(rng.choice(p.size, p=p))


def _batch(data, N, *, rng, epsilon, alpha=None, beta=None, n=None, H_size=None, **kw):
    p = _probs(data, epsilon)
    return rng.choice(p.size, size=N, p=p).astype(np.int64)


generic_learner.batch = _batch
