"""BUG: two-sided geometric sampled as "magnitude ~ Geometric(1-alpha) - 1 (support 0,1,2,...),
then a random sign": zero is counted on both sides, so P[Z=0] = 1-alpha while P[Z=k] =
(1-alpha) alpha^|k| / 2 for k != 0.  Ratio P[0]/P[1] = 2/alpha = 2 e^epsilon: loss epsilon + ln 2.
Pair f(D) = [0] vs f(D') = [1] at epsilon=1, output 0: 0.632 vs 0.116, loss 1.69 > 1.
Expected class: claim violated.
"""
import numpy as np


def geom(data, *, rng, epsilon, sensitivity, **_):
    f = np.asarray(data, dtype=float).astype(np.int64)
    alpha = np.exp(-epsilon / sensitivity)
    mag = rng.geometric(1 - alpha, size=f.shape) - 1
    sign = np.where(rng.random(size=f.shape) < 0.5, -1, 1)
    return (f + sign * mag).astype(np.int64)


def geom_batch(data, n, *, rng, epsilon, sensitivity, **_):
    f = np.asarray(data, dtype=float).astype(np.int64)
    alpha = np.exp(-epsilon / sensitivity)
    mag = rng.geometric(1 - alpha, size=(n, *f.shape)) - 1
    sign = np.where(rng.random(size=(n, *f.shape)) < 0.5, -1, 1)
    return (f[None] + sign * mag).astype(np.int64)


geom.batch = geom_batch
