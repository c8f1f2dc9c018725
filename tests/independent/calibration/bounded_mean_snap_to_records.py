"""Bounded mean (diffprivlib.tools.mean) -- PRIVACY BUG: an out-of-range release is snapped onto the data.

Clip to [lower, upper], add Lap((upper - lower)/(n eps)) to the mean -- the spec's release -- then, where
diffprivlib truncates a release outside [lower, upper] to the bound, this file moves it to the nearest
clipped record ("a mean lies between the smallest and the largest record"): below lower -> min(records),
above upper -> max(records).  The atoms sit at data-dependent values.  One call at a time, no .batch.

TRUTH (closed form; the author's script, not kept):
 (a) the spec's audit point eps = 0.5, lower = -2, upper = 3, n = 5, stress pair record_lower_to_upper
     D = [-2,0,0,0,0] vs D' = [3,0,0,0,0] (b = 2): P_D[out = -2.0] = exp(-0.8)/2 = 0.225, P_D'[out = -2.0] = 0;
     P_D'[out = 3.0] = exp(-1.2)/2 = 0.151, P_D[out = 3.0] = 0: infinite loss (delta >= 0.22 at any epsilon).
 (b) the default eps = 1, [0, 1], n = 10, D = [0]*10 vs D' = [1, 0 x 9] (b = 0.1): P_D'[out = 1.0] =
     exp(-9)/2 = 6.2e-5 vs 0: infinite loss on little mass; {out = 0.0}: 0.5 + exp(-10)/2 vs exp(-1)/2,
     loss exactly 1.000 (the claim).
"""
import numpy as np


def bounded_mean(data, *, rng, epsilon, lower, upper, **_):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    m = x.mean() + rng.laplace(0.0, (upper - lower) / (x.size * epsilon))
    if m < lower:
        m = x.min()
    elif m > upper:
        m = x.max()
    return float(m)
