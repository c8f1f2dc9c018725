"""Bounded mean computed in numpy.longdouble (float128 on x86_64 Linux), accepting Python lists,
returning a numpy longdouble scalar: mean(clip(D, lower, upper)) + Lap((upper-lower)/(n*epsilon))."""
import numpy as np

LD = np.longdouble


def bmean(data, *, rng, epsilon, lower, upper, **_unused):
    x = np.asarray(list(np.asarray(data).reshape(-1).tolist()), dtype=LD)
    x = np.clip(x, LD(lower), LD(upper))
    n = x.size
    noise = LD(rng.laplace(0.0, (upper - lower) / (n * epsilon)))
    return x.sum(dtype=LD) / LD(n) + noise


def _batch(data, N, *, rng, epsilon, lower, upper, **_unused):
    x = np.clip(np.asarray(data, dtype=LD).reshape(-1), LD(lower), LD(upper))
    n = x.size
    noise = rng.laplace(0.0, (upper - lower) / (n * epsilon), size=N).astype(LD)
    return x.sum(dtype=LD) / LD(n) + noise


bmean.batch = _batch
