"""Warner's coin version that ignores epsilon: with probability 1/2 answer truthfully, else answer a
fair coin. P[report = bit] = 3/4 whatever epsilon.

PRIVACY BUG at epsilon < ln 3: the loss is ln 3 = 1.099 > 1 at the default epsilon = 1 (and > 0.5
at the audit point 0.5). At epsilon = 3 it is more private than claimed (a law difference).
"""
import numpy as np


def rr(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    if rng.random() < 0.5:
        return bit
    return int(rng.random() < 0.5)


def _batch(data, n, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    truth = rng.random(n) < 0.5
    coin = (rng.random(n) < 0.5).astype(np.int8)
    return np.where(truth, np.int8(bit), coin).astype(np.int8)


rr.batch = _batch
