"""GenericLearner (Lemma 16), valid variant.

Same law Pr[h] proportional to exp(-epsilon*err_S(h)/2), sampled by the Gumbel-max trick
(argmax_h of -epsilon*err_S(h)/2 + G_h with G_h i.i.d. standard Gumbel is distributed as the
softmax; ties have probability 0).  Per-call only, a child generator derived from rng via
rng.spawn, the result returned as a numpy scalar, and an unused keyword accepted.
"""
import numpy as np


def generic_learner(data, *, rng, epsilon, alpha, beta, n, H_size, verbose=False, **unused):
    H = np.asarray(data["H"], dtype=np.int8)
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"], dtype=np.int8)
    err = (H[:, x] != y[None, :]).sum(axis=1).astype(float)      # mistake counts
    child = rng.spawn(1)[0]
    g = child.gumbel(size=H.shape[0])
    idx = np.argmax(-0.5 * epsilon * err + g)
    if verbose:
        print("generic_learner picked", idx)
    return np.int64(idx)
