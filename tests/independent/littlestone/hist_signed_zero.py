"""Stable histogram whose padding rows are written per suppressed item as (-1, -0.0) (the estimate
of a suppressed item is set to 'zero' by multiplying its negative-signed slot by 0) and the rest
as (-1, +0.0).

PRIVACY BUG (bit-level, no noise): the number of -0.0 padding rows equals the number of distinct
items that occur but are not released, so the support size leaks. On support_change_plus_shift
((1, 2^30) vs (2^31)) D has one -0.0 row w.p. 1 - delta/2 and D' none: infinite loss. The values
compare equal (-0.0 == 0.0), only the sign bit differs.
"""
import numpy as np


def hist(data, *, rng, epsilon, delta):
    items = np.asarray(data, dtype=np.int64).reshape(-1)
    n = items.size
    ids, counts = np.unique(items, return_counts=True)
    noisy = counts + rng.laplace(0.0, 2.0 / epsilon, size=ids.size)
    tau = 1.0 + (2.0 / epsilon) * np.log(1.0 / delta)
    keep = noisy >= tau
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    k = int(keep.sum())
    out[:k, 0] = ids[keep]
    out[:k, 1] = np.minimum(1.0, noisy[keep] / n)
    suppressed = int((~keep).sum())
    out[k:k + suppressed, 1] = -1.0 * 0.0       # -0.0: 'no estimate' for each suppressed item
    return out


def _batch(data, N, *, rng, epsilon, delta):
    return np.stack([hist(data, rng=rng, epsilon=epsilon, delta=delta) for _ in range(N)])


hist.batch = _batch
