"""VALID: stable histogram (Lemma 15) with the Laplace noise sampled as the difference of two
independent Exponential(scale b) variables (exactly Lap(b), b = 2/epsilon), one per item that occurs,
and the release test written noisy > tau instead of >= tau (the noisy count is continuous, so the
two events differ with probability 0).  Same law, same privacy.  Expected class: pass.
"""
import numpy as np


def hist(data, *, rng, epsilon, delta, n, **_):
    x = np.asarray(data).astype(np.int64)
    ids, counts = np.unique(x, return_counts=True)
    b = 2.0 / epsilon
    tau = 1.0 + b * np.log(1.0 / delta)
    noisy = counts + (rng.exponential(b, size=ids.size) - rng.exponential(b, size=ids.size))
    keep = noisy > tau
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    k = int(keep.sum())
    out[:k, 0] = ids[keep]
    out[:k, 1] = np.minimum(1.0, noisy[keep] / n)
    return out
