"""Stable histogram (Lemma 15) -- BUG: threshold taken from the add/remove textbook version.

Noise is Lap(2/epsilon) (replace-one, two counts move), but the release threshold is the
one of the add/remove analysis with Lap(1/epsilon): tau = 1 + ln(1/delta)/epsilon.
A count-1 item is then released with probability (1/2) exp(-(ln(1/delta)/epsilon)*epsilon/2)
= sqrt(delta)/2 = 5e-4 instead of delta/2."""
import math

import numpy as np


def stable_hist(data, *, rng, epsilon, delta, eta, beta, n):
    data = np.asarray(data, dtype=np.int64)
    n = int(n)
    ids, counts = np.unique(data, return_counts=True)
    b = 2.0 / epsilon
    tau = 1.0 + math.log(1.0 / delta) / epsilon          # BUG: should be 1 + b ln(1/delta)
    noisy = counts + rng.laplace(0.0, b, size=counts.shape)
    keep = noisy >= tau
    k = int(keep.sum())
    out = np.tile(np.array([-1.0, 0.0]), (n, 1))
    out[:k, 0] = ids[keep]
    out[:k, 1] = np.minimum(1.0, noisy[keep] / n)
    return out


def _batch(data, nruns, *, rng, epsilon, delta, eta, beta, n):
    data = np.asarray(data, dtype=np.int64)
    n = int(n)
    ids, counts = np.unique(data, return_counts=True)
    b = 2.0 / epsilon
    tau = 1.0 + math.log(1.0 / delta) / epsilon
    noisy = counts[None, :] + rng.laplace(0.0, b, size=(nruns, counts.size))
    keep = noisy >= tau
    out = np.tile(np.array([-1.0, 0.0]), (nruns, n, 1))
    # stable placement: released items keep ascending id order
    pos = np.cumsum(keep, axis=1) - 1
    r, c = np.nonzero(keep)
    out[r, pos[r, c], 0] = ids[c]
    out[r, pos[r, c], 1] = np.minimum(1.0, noisy[r, c] / n)
    return out


stable_hist.batch = _batch
