"""GenericLearner (Lemma 16) that aggregates the sample per domain point, assuming the
labels are a function of the point (realizable case): each distinct point gets the label of
its FIRST occurrence and its multiplicity; err(h) = sum over points of count * [h(x) != label].
Fast for large n (one pass over |X| instead of n), exact when labels are consistent."""
import numpy as np


def _err(data):
    H = np.asarray(data["H"]).astype(np.int64)
    x = np.asarray(data["x"]).astype(np.int64).reshape(-1)
    y = np.asarray(data["y"]).astype(np.int64).reshape(-1)
    pts, first, cnt = np.unique(x, return_index=True, return_counts=True)
    lab = y[first]
    return ((H[:, pts] != lab[None, :]) * cnt[None, :]).sum(axis=1)


def _probs(data, epsilon):
    z = -epsilon * _err(data).astype(float) / 2.0
    w = np.exp(z - z.max())
    return w / w.sum()


def learner(data, *, rng, epsilon):
    p = _probs(data, epsilon)
    return int(rng.choice(p.size, p=p))


def _batch(data, n, *, rng, epsilon):
    c = np.cumsum(_probs(data, epsilon))
    c[-1] = 1.0
    return np.searchsorted(c, rng.random(n), side="right").astype(np.int64)


learner.batch = _batch
