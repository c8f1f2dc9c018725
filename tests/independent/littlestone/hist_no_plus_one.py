"""Stable histogram with threshold tau = (2/eps) ln(1/delta) (the '1 +' dropped).

DIFFERS: a count-1 item is released w.p. (1/2) exp(-(tau - 1) eps/2) = (delta/2) e^(eps/2) = 0.82 delta
at eps = 1 (the spec's law: delta/2). The claim still holds: on the support-change pairs the
hockey-stick divergence at eps is exactly that release probability (the remaining counts move by
at most e^(eps/2) < e^eps), (delta/2) e^(eps/2) <= delta for eps <= 2 ln 2.
"""
import numpy as np


def hist(data, *, rng, epsilon, delta):
    items = np.asarray(data, dtype=np.int64).reshape(-1)
    n = items.size
    ids, counts = np.unique(items, return_counts=True)
    noisy = counts + rng.laplace(0.0, 2.0 / epsilon, size=ids.size)
    tau = (2.0 / epsilon) * np.log(1.0 / delta)
    keep = noisy >= tau
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    k = int(keep.sum())
    out[:k, 0] = ids[keep]
    out[:k, 1] = np.minimum(1.0, noisy[keep] / n)
    return out


def _batch(data, N, *, rng, epsilon, delta):
    return np.stack([hist(data, rng=rng, epsilon=epsilon, delta=delta) for _ in range(N)])


hist.batch = _batch
