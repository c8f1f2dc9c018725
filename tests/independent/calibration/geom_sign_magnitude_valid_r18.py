"""geometric_mechanism, valid variant: sign/magnitude sampler of the two-sided geometric law.

P[Z=0] = (1-a)/(1+a); otherwise |Z| ~ Geometric(1-a) on {1,2,...} and a fair sign.
alpha a = exp(-eps/Delta).  Same law as the spec (Fact GM2).
"""
import numpy as np


def _noise(rng, eps, sens, shape):
    a = np.exp(-eps / sens)
    p0 = (1 - a) / (1 + a)
    u = rng.random(shape)
    mag = rng.geometric(1.0 - a, size=shape)
    sgn = np.where(rng.random(shape) < 0.5, -1, 1)
    return np.where(u < p0, 0, sgn * mag).astype(np.int64)


def geometric(data, *, rng, epsilon, sensitivity, p=None, **unused):
    f = np.rint(np.asarray(data, dtype=float)).astype(np.int64)
    return f + _noise(rng, epsilon, sensitivity, f.shape)


def _batch(data, n, *, rng, epsilon, sensitivity, p=None, **unused):
    f = np.rint(np.asarray(data, dtype=float)).astype(np.int64)
    return f[None, :] + _noise(rng, epsilon, sensitivity, (n, *f.shape))


geometric.batch = _batch
