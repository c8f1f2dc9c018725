# BUG: "fast path" for large datasets: above 64 records the clipped sum is estimated from a random
# subsample of 64 records scaled by n/64, with the noise of the exact sum (Lap((upper-lower)/epsilon)).
# The estimate's sensitivity is then (n/64)*(upper-lower) when the changed record is sampled (prob 64/n).
import numpy as np


def bsum(data, *, rng, epsilon, lower, upper):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    n = x.size
    if n > 64:
        idx = rng.choice(n, size=64, replace=False)
        s = x[idx].sum() * (n / 64.0)
    else:
        s = x.sum()
    return float(s + rng.laplace(0.0, (upper - lower) / epsilon))
