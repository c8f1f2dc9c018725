"""Private classification queries (seed 000, Sec. 4.1: A_subSamp on the chunk classifiers' votes, then A_OQR),
written for binary labels and then used on vote rows of any width."""
import math

import numpy as np


def pcq(data, *, rng, epsilon, delta, T, m, **_):
    votes = np.atleast_2d(np.asarray(data, dtype=np.int64))
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    released = np.full(votes.shape[0], -2, dtype=np.int64)
    bottoms = 0
    noisy_w = w + rng.laplace(0.0, lam)
    for i, row in enumerate(votes):
        if bottoms > T:
            break
        label = int(np.argmax(row))
        challenger = 1 if label == 0 else 0  # the gap to "the other label"
        dist = max(0, int(row[label]) - int(row[challenger]) - 1)
        if dist + rng.laplace(0.0, 2.0 * lam) > noisy_w:
            released[i] = label
        else:
            released[i] = -1
            bottoms += 1
            noisy_w = w + rng.laplace(0.0, lam)
    return released
