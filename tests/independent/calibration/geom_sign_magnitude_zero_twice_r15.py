"""geometric_mechanism, BUG: sign-magnitude sampler that double-counts zero.

The developer draws a one-sided geometric magnitude M on {0, 1, 2, ...} with
P[M = k] = (1 - a) a^k (a = exp(-epsilon/sensitivity)) and attaches an independent
fair sign.  Zero is produced by both signs, so the law is
    P[Z = 0] = 1 - a,   P[Z = k] = (1 - a) a^|k| / 2  (k != 0)
instead of (1-a)/(1+a) a^|k|: the exact answer is over-weighted by the factor (1+a)
and every other point is under-weighted.

TRUTH (exact): shift of one coordinate by s = sensitivity, e.g. f(D) = [0], f(D') = [1]
at the default point: output y = 0 has probability (1 - a) on D and (1 - a) a^s / 2 on
D', ratio 2 / a^s = 2 e^epsilon, so the privacy loss is epsilon + ln 2:
  epsilon = 1 (default): 1.693 vs claim 1;   epsilon = 0.5, s = 3, p = 3: 1.193 vs 0.5;
  epsilon = 2: 2.693 vs 2.
CORRECTION (after the run): when the L1 move of s is split over several coordinates,
each coordinate at its own zero atom contributes ln 2 + eps/s: max loss = eps + min(p, s) ln 2.
At epsilon = 0.5, s = 3, p = 3, pair [0,0,0] vs [1,1,1], output [0,0,0]: 0.5 + 3 ln 2 = 2.579.
At the searched point epsilon = 0.125 (s = p = 1): 0.818.
"""
import numpy as np


def geometric(data, *, rng, epsilon, sensitivity, p):
    f = np.rint(np.asarray(data, dtype=float)).astype(np.int64).reshape(-1)
    a = np.exp(-float(epsilon) / float(sensitivity))
    mag = rng.geometric(1.0 - a, size=f.shape).astype(np.int64) - 1   # {0, 1, ...}
    sign = np.where(rng.random(size=f.shape) < 0.5, -1, 1)
    return f + sign * mag
