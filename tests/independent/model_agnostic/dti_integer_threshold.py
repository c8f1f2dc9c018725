import numpy as np


def stab(data, *, rng, epsilon, delta, beta=None):
    f, dist = int(data[0]), int(data[1])
    # distances are integers, so compare against an integer threshold
    Gamma = int(np.log(1 / delta) / epsilon)
    noisy = dist + rng.laplace(0.0, 1.0 / epsilon)
    return f if noisy > Gamma else -1

def _batch(data, n, *, rng, epsilon, delta, beta=None):
    f, dist = int(data[0]), int(data[1])
    Gamma = int(np.log(1 / delta) / epsilon)
    noisy = dist + rng.laplace(0.0, 1.0 / epsilon, size=n)
    return np.where(noisy > Gamma, f, -1).astype(np.int64)

stab.batch = _batch
