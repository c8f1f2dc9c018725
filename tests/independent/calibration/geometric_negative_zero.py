"""Geometric (discrete Laplace) mechanism -- PRIVACY BUG: sign-magnitude sampler that double-counts zero.

The two-sided geometric noise is drawn as a magnitude M ~ Geometric(1 - alpha) on {0, 1, 2, ...}
(numpy's geometric counts trials, hence - 1) times a fair random sign, alpha = exp(-epsilon/sensitivity).
The (negative sign, M = 0) outcome is not rejected, so 0 collects both signs:
P[Z = 0] = 1 - alpha, P[Z = k] = (1 - alpha) alpha^|k| / 2 for k != 0 -- not the spec's
(1 - alpha)/(1 + alpha) alpha^|k|.  One call at a time, no .batch.

TRUTH (closed form; the author's script, not kept): the spec's stress pair
shift_by_sensitivity, f = [0] vs f' = [sensitivity], event {output = 0}:
P_D = 1 - alpha, P_D' = P[Z = -sensitivity] = (1 - alpha) alpha^sensitivity / 2, loss = epsilon + ln 2:
1.693 against 1 at the default (eps = 1, sens = 1; P 0.632 vs 0.116); 2.693 against 2 at eps = 2; 0.818 against 0.125 at eps = 1/8.
Splitting the L1 budget over coordinates adds ln 2 per moved coordinate: at the audit point eps = 0.5,
sens = 3, p = 3, the pair [0,0,0] vs [1,1,1] with event {output = [0,0,0]} has loss
3 (eps/3 + ln 2) = eps + 3 ln 2 = 2.579 against 0.5 (one coordinate moved by 3: 1.193).
"""
import math

import numpy as np


def geometric(data, *, rng, epsilon, sensitivity, **_):
    f = np.asarray(data, dtype=float).astype(np.int64)
    alpha = math.exp(-epsilon / sensitivity)
    magnitude = rng.geometric(1.0 - alpha, size=f.shape) - 1
    sign = np.where(rng.random(size=f.shape) < 0.5, -1, 1)
    return f + sign * magnitude
