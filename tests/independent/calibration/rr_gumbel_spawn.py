"""Randomized response by Gumbel-max over the two reports: the true bit has log-weight
epsilon, the flipped bit log-weight 0, so P[true bit] = e^eps/(1 + e^eps) exactly.
Randomness from a child generator made with rng.spawn; the batch logs to stderr."""
import sys

import numpy as np


def _reports(bit, n, rng, epsilon):
    child = rng.spawn(1)[0]
    g = child.gumbel(size=(int(n), 2))
    keep = (float(epsilon) + g[:, 0]) > g[:, 1]
    b = int(round(float(bit)))
    return np.where(keep, b, 1 - b).astype(np.int8)


def randomized_response(data, *, rng, epsilon):
    return int(_reports(data, 1, rng, epsilon)[0])


def _batch(data, n, *, rng, epsilon):
    print(f"rr batch n={n}", file=sys.stderr)
    return _reports(data, n, rng, epsilon)


randomized_response.batch = _batch
