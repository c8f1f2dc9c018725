"""GenericLearner (Lemma 16) by the Gumbel-max trick, from a child generator.

argmax_h (-epsilon*err_S(h)/2 + G_h), G_h i.i.d. standard Gumbel, is distributed exactly as the
softmax Pr[h] ~ exp(-epsilon*err_S(h)/2) (ties have probability 0). The Gumbel draws come from
np.random.default_rng(rng.integers(2**63)), a child of the given rng. Returns a numpy int64.
"""
import numpy as np


def _logits(data, epsilon):
    H = np.asarray(data["H"]).astype(np.int64)
    x = np.asarray(data["x"]).astype(np.int64)
    y = np.asarray(data["y"]).astype(np.int64)
    err = np.count_nonzero(H[:, x] != y, axis=1)
    return -0.5 * epsilon * err.astype(float)


def generic(data, *, rng, epsilon, alpha=None, beta=None, verbose=False, **unused):
    child = np.random.default_rng(rng.integers(2**63))
    z = _logits(data, epsilon)
    g = child.gumbel(size=z.size)
    return np.argmax(z + g)                       # numpy.int64


def _batch(data, n, *, rng, epsilon, **unused):
    child = np.random.default_rng(rng.integers(2**63))
    z = _logits(data, epsilon)
    return np.argmax(z[None, :] + child.gumbel(size=(n, z.size)), axis=1)


generic.batch = _batch
