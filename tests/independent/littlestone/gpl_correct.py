"""GenericLearner (seed 003 Lemma 16): exponential mechanism over the rows of H with weights
exp(-eps * err_S(h)/2), err_S(h) = number of mistakes on the sample; log-sum-exp, inverse CDF."""
import numpy as np


def _errors(data):
    H = np.asarray(data["H"]).astype(np.int64)
    x = np.asarray(data["x"]).reshape(-1).astype(np.int64)
    y = np.asarray(data["y"]).reshape(-1).astype(np.int64)
    return (H[:, x] != y[None, :]).sum(axis=1).astype(np.float64)


def _probs(data, epsilon):
    s = -0.5 * epsilon * _errors(data)
    s -= s.max()
    p = np.exp(s)
    return p / p.sum()


def learn(data, *, rng, epsilon):
    c = np.cumsum(_probs(data, epsilon))
    return int(min(np.searchsorted(c, rng.random() * c[-1], side="right"), c.size - 1))


def _batch(data, N, *, rng, epsilon):
    c = np.cumsum(_probs(data, epsilon))
    return np.minimum(np.searchsorted(c, rng.random(N) * c[-1], side="right"), c.size - 1).astype(np.int64)


learn.batch = _batch
