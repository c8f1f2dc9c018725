# BUG: the noise is drawn in float64 but stored as float32 before it is added (a float32 noise buffer):
# f(D) + noise, with noise on the float32 grid. For f = 0 every output is a float32 value; for f = gamma
# most outputs are not -> an event with probability 1 on one side and 0 on the other (infinite loss).
import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    noise = rng.laplace(0.0, gamma / epsilon, size=f.shape).astype(np.float32)
    return f + noise.astype(np.float64)

def laplace_batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    noise = rng.laplace(0.0, gamma / epsilon, size=(n, *f.shape)).astype(np.float32)
    return f + noise.astype(np.float64)

laplace.batch = laplace_batch
