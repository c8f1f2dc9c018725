"""GenericLearner over the DISTINCT rows of H (duplicate candidate rows are
merged, the first index of a row is returned).  Still the exponential mechanism
(over the set of distinct hypotheses), but the spec counts every row."""
import numpy as np


def generic_private_learner(data, *, rng, epsilon, alpha, beta, n, H_size):
    H = np.asarray(data["H"], dtype=np.int64)
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"], dtype=np.int64)
    _, first = np.unique(H, axis=0, return_index=True)
    first = np.sort(first)
    err = (H[first][:, x] != y[None, :]).sum(axis=1).astype(float)
    logw = -epsilon * err / 2.0
    logw -= logw.max()
    p = np.exp(logw)
    p /= p.sum()
    return int(first[rng.choice(first.size, p=p)])
