"""GenericLearner (Lemma 16) -- PRIVACY BUG: candidates below 1e-3 of the best weight are dropped.

A speed-up "that changes nothing visible": before sampling, candidates whose weight
exp(-epsilon*err/2) is below REL_TOL = 1e-3 times the best candidate's weight are discarded
(their total mass is "negligible").  The cut-off err(h) - min_g err(g) > 2 ln(1000)/epsilon
depends on the data, so a candidate just inside the cut on S and just outside on a neighbour S'
has positive probability on S and probability exactly 0 on S' -- pure DP (delta = 0) is lost.
"""
import numpy as np

REL_TOL = 1e-3


def _probs(data, epsilon):
    H = np.asarray(data["H"], dtype=np.int8)
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"], dtype=np.int8)
    err = (H[:, x] != y[None, :]).sum(axis=1).astype(float)
    logw = -0.5 * epsilon * err
    logw = logw - logw.max()
    keep = logw >= np.log(REL_TOL)                 # BUG: data-dependent support
    w = np.where(keep, np.exp(logw), 0.0)
    return w / w.sum()


def generic_learner(data, *, rng, epsilon, alpha, beta, n, H_size):
    p = _probs(data, epsilon)
    return int(rng.choice(p.size, p=p))


def generic_learner_batch(data, n_runs, /, *, rng, epsilon, alpha, beta, n, H_size):
    p = _probs(data, epsilon)
    return rng.choice(p.size, size=n_runs, p=p)


generic_learner.batch = generic_learner_batch
