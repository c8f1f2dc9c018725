"""Report noisy max with Lap(2/epsilon) noise (Dwork-Roth Claim 3.9, non-monotone scale). Per call: a Python
loop that draws the noise of the LAST answer first (reverse order), each Laplace by the inverse CDF from
rng.random() (u in [0,1): x = b ln(2u) if u < 1/2 else -b ln(2(1-u))), keeps the running maximum and breaks
ties uniformly at random (reservoir style, which draws an extra coin only on exact ties: probability 0).
Returns a numpy int64 scalar. Batch: rng.laplace on an (k, N) block, transposed; argmax. Law: the spec's."""
import math

import numpy as np


def _lap(u, b):
    if u < 0.5:
        return b * math.log(2.0 * u) if u > 0.0 else -math.inf
    return -b * math.log(2.0 * (1.0 - u))


def rnm(data, *, rng, epsilon):
    q = [float(v) for v in np.ravel(data)]
    b = 2.0 / epsilon
    best, best_i, ties = -math.inf, -1, 0
    for i in range(len(q) - 1, -1, -1):
        v = q[i] + _lap(rng.random(), b)
        if v > best or best_i < 0:
            best, best_i, ties = v, i, 1
        elif v == best:
            ties += 1
            if rng.random() < 1.0 / ties:
                best_i = i
    return np.int64(best_i)


def _batch(data, N, *, rng, epsilon):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    noise = rng.laplace(0.0, 2.0 / epsilon, size=(q.size, N)).T
    return np.argmax(q[None, :] + noise, axis=1).astype(np.int64)


rnm.batch = _batch
