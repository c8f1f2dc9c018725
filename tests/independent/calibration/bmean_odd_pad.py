"""bounded_mean -- BUG (odd n padded by repeating the last record for a pairwise sum).

What it is: diffprivlib-style clipped mean + Lap((upper-lower)/(n eps)), but the mean is
computed by a pairwise reduction x.reshape(-1, 2); for odd n the clipped array is first
padded with a copy of its last record (np.pad mode='edge') and divided by the padded
length n+1. The noise keeps the true n.

TRUTH: exact law for even n (the default n = 10). For odd n the LAST record has weight
2/(n+1) instead of 1/n. n = 11, eps = 1, [0, 1]: D = [0]*11 vs D' = [0]*10 + [1] move the
centre by 2/12 = 1/6 while b = 1/11, loss (1/6)/(1/11) = 11/6 = 1.833 > 1 (Monte Carlo
on the event {out > 1/6}: ln(P_D'/P_D) = 1.83). At n = 11 any other record moves the
centre by 1/12 (loss 0.917). Also at the spec's audit point n = 5, eps = 0.5, [-2, 3]:
[0,0,0,0,-2] vs [0,0,0,0,3] move the centre by 5/3 with b = 2, loss 5/6 = 0.833 > 0.5
(Monte Carlo of this file, 6e5 calls per side, event {out > 2}: 0.831). At general odd n
the loss is 2n eps/(n+1).
"""
import numpy as np


def bmean(data, *, rng, **params):
    eps = float(params["epsilon"])
    lo = float(params["lower"])
    hi = float(params["upper"])
    x = np.clip(np.asarray(data, dtype=float).ravel(), lo, hi)
    n = x.size
    if n % 2:
        x = np.pad(x, (0, 1), mode="edge")                   # BUG: last record counted twice
    centre = x.reshape(-1, 2).sum(axis=1).sum() / x.size
    return float(centre + rng.laplace(0.0, (hi - lo) / (n * eps)))
