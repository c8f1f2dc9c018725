"""bounded_sum, BUG (law of the released value, Fact BS2; call-pattern and parameter triggered):
the caller's array is normalised IN PLACE.

The records are mapped to [0, 1] by x -= lower; x /= (upper - lower); clip(x, 0, 1, out=x) on
np.asarray(data, dtype=float64), which is the caller's own array when it is already float64 (no copy).
The release sum(clip) = (upper - lower) sum(x) + n lower, plus Lap((upper - lower)/eps), is exact for the
FIRST call on an array.  But the caller's data now holds the normalised values; with the default bounds
[0, 1] the normalisation is the identity (clipping is idempotent), so nothing shows; with other bounds every
further call on the same array releases the clipped sum of (D - lower)/(upper - lower) instead.
TRUTH: lower = -2, upper = 3, eps = 1, D = [3.0]*10 (float64): call 1 releases 30 + Lap(5) (right), call 2 on
the same array releases 10 + Lap(5) (centre off by -20 = 4 scales), call 3 6 + Lap(5), ..., drifting to the
fixed point 5 + Lap(5).  Fact BS2 (P[M(D) - sum(clip(D)) > t] = e^{-t/b}/2) fails from the second call:
P[M - 30 > 0] = e^{-20/5}/2 = 0.0092 instead of 0.5 (MC in REPORT.md).  Each call is still eps-DP (a clipped
sum of a record-wise map, sensitivity <= upper - lower), so no privacy claim breaks.
"""
import numpy as np


def bsum(data, *, rng, epsilon=1.0, lower=0.0, upper=1.0, n=None):
    x = np.asarray(data, dtype=np.float64)
    width = float(upper) - float(lower)
    x -= lower
    x /= width
    np.clip(x, 0.0, 1.0, out=x)
    total = width * float(x.sum()) + x.size * float(lower)
    return float(total + rng.laplace(0.0, width / epsilon))
