"""GenericLearner (exponential mechanism over H) with integer-looking scores: the logit is written
-epsilon * err // 2, which floor-divides, i.e. floor(-epsilon*err/2) instead of -epsilon*err/2."""
import numpy as np


def _logits(data, epsilon):
    H = np.asarray(data["H"], dtype=np.int64)
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"], dtype=np.int64)
    err = (H[:, x] != y[None, :]).sum(axis=1)
    z = -epsilon * err // 2                      # BUG: floor division
    return z - z.max()


def learner(data, *, rng, epsilon, alpha=None, beta=None, n=None, H_size=None):
    z = _logits(data, epsilon)
    p = np.exp(z)
    p /= p.sum()
    return int(np.searchsorted(np.cumsum(p), rng.random() * p.sum() * (1 - 1e-15), side="right").clip(0, len(p) - 1))


def learner_batch(data, N, *, rng, epsilon, alpha=None, beta=None, n=None, H_size=None):
    z = _logits(data, epsilon)
    p = np.exp(z)
    cdf = np.cumsum(p / p.sum())
    u = rng.random(N) * cdf[-1] * (1 - 1e-15)
    return np.searchsorted(cdf, u, side="right").clip(0, len(p) - 1).astype(np.int64)


learner.batch = learner_batch
