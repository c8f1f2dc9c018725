"""bounded_mean -- VALID VARIANT (exact rational mean, inverse-CDF Laplace, per-call only, list input ok).

Differences from diffprivlib.tools.mean:
  * the clipped mean is computed EXACTLY with fractions.Fraction (each float record is an exact
    rational; clipping by comparison; sum and division exact), then rounded once to float64;
  * noise by inverse CDF of ONE uniform u in (0,1): L = -b*sign(u-1/2)*ln(1-2|u-1/2|),
    which is exactly Lap(b) (continuous law), b = (upper-lower)/(n*epsilon);
  * no .batch.
TRUTH: release = mean(clip(D)) + Lap((upper-lower)/(n eps)), the spec's law (Fact BM2) up to one
float rounding of the mean (<= 1 ulp; the textbook's float summation errs by a few ulp) ->
epsilon-DP (Fact BM1).  n is read from the data.
"""
import math
from fractions import Fraction


def bounded_mean(data, *, rng, epsilon=1.0, lower=0.0, upper=1.0, **_ignored):
    recs = [float(v) for v in (data.tolist() if hasattr(data, "tolist") else data)]
    if hasattr(data, "ndim") and getattr(data, "ndim", 1) > 1:
        recs = [float(v) for v in data.ravel().tolist()]
    n = len(recs)
    lo, hi = Fraction(float(lower)), Fraction(float(upper))
    tot = Fraction(0)
    for v in recs:
        fv = Fraction(v)
        if fv < lo:
            fv = lo
        elif fv > hi:
            fv = hi
        tot += fv
    m = float(tot / n)
    b = (float(upper) - float(lower)) / (n * float(epsilon))
    u = rng.random()
    while u == 0.0:
        u = rng.random()
    d = u - 0.5
    lap = -b * math.copysign(1.0, d) * math.log1p(-2.0 * abs(d))
    return float(m + lap)
