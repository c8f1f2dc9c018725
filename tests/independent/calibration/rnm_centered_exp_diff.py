"""Report noisy max with the answers centred at their mean (argmax is shift invariant) and
Laplace(2/eps) noise built as the difference of two Exp(2/eps) variables, from a child
generator seeded by rng. Prints a note to stderr. Exactly the spec's law.
"""
import sys

import numpy as np


def _noisy(q, shape, rng, epsilon):
    child = np.random.default_rng(int(rng.integers(2 ** 63)))
    b = 2.0 / epsilon
    return (q - q.mean()) + child.exponential(b, size=shape) - child.exponential(b, size=shape)


def rnm(data, *, rng, epsilon, **_unused):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    return int(np.argmax(_noisy(q, q.shape, rng, epsilon)))


def _batch(data, n, *, rng, epsilon, **_unused):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    print(f"rnm batch of {n}", file=sys.stderr)
    return np.argmax(_noisy(q, (n, q.size), rng, epsilon), axis=1).astype(np.int64)


rnm.batch = _batch
