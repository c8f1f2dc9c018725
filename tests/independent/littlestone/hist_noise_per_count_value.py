"""BUG: the stable histogram draws ONE Laplace noise per distinct count VALUE (a "consistency" memo
so that items of equal count get equal estimates), not one per item.  Without ties in the counts it
is exactly the spec's law; with ties the noises are shared.  Pair (n=500): D with items 0 and 1 of
count 250 each, D' with one 1 replaced by 0 (counts 251, 249): on D both items are released with
identical estimates whenever one is; on D' the two estimates are independent and almost never equal
-> event "two released rows with equal estimates" has prob ~1 vs 0: infinite loss.
Expected class: claim violated.
"""
import numpy as np


def hist(data, *, rng, epsilon, delta, n, **_):
    x = np.asarray(data).astype(np.int64)
    ids, counts = np.unique(x, return_counts=True)
    b = 2.0 / epsilon
    tau = 1.0 - b * np.log(delta)
    vals, inv = np.unique(counts, return_inverse=True)
    noise = rng.laplace(0.0, b, size=vals.size)[inv]          # bug: shared per count value
    noisy = counts + noise
    keep = noisy >= tau
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    k = int(keep.sum())
    out[:k, 0] = ids[keep]
    out[:k, 1] = np.minimum(1.0, noisy[keep] / n)
    return out
