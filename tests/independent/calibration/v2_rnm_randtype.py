"""Report noisy max (Lap(2/epsilon)); the index is returned as a float with probability 1/2
(a coin drawn from rng, independent of the data), otherwise as an int. Per-call only."""
import numpy as np


def rnm(data, *, rng, epsilon):
    q = np.asarray(data, dtype=float).reshape(-1)
    idx = int(np.argmax(q + rng.laplace(0.0, 2.0 / epsilon, size=q.size)))
    if rng.random() < 0.5:
        return float(idx)
    return idx
