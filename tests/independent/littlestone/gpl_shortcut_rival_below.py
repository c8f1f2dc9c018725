"""Exponential mechanism over H; when every rival of the empirical risk minimiser has probability
below a tail (1e-3, 1e-4) the answer is the ERM (saves the sampling)."""
import numpy as np


def _shortcut(data, rng, epsilon, tail):
    H = np.asarray(data["H"]); x = np.asarray(data["x"]); y = np.asarray(data["y"])
    err = (H[:, x] != y[None, :]).sum(axis=1).astype(float)
    logw = -epsilon * err / 2.0
    logw -= logw.max()
    p = np.exp(logw); p /= p.sum()
    best = int(np.argmax(p))
    if np.all(np.delete(p, best) < tail):
        return best
    return int(rng.choice(len(p), p=p))


def below_1e3(data, *, rng, epsilon, alpha, beta, n, H_size):
    return _shortcut(data, rng, epsilon, 1e-3)


def below_1e4(data, *, rng, epsilon, alpha, beta, n, H_size):
    return _shortcut(data, rng, epsilon, 1e-4)
