"""bounded_mean -- BUG (privacy; INPUT PROPERTY: a record of huge magnitude).

The clipped sum is computed as  sum(x) - sum(excess)  with excess = x - clip(x, lower, upper)
("only the out-of-range records need correcting"), algebraically equal to sum(clip(x)).  In
float64 the subtraction cancels catastrophically when some |x| is large: the in-range records
are absorbed in sum(x) (spacing 16 at 1e17), so the computed clipped mean can be off by up to
(ulp of the big record)/n.  For moderate out-of-range records (|x| < ~1e12 at n = 10) the error
is < 1e-4 of b and the release is the spec's law.
Noise: Lap((upper-lower)/(n eps)) (correct).  fn and fn.batch (vectorised noise) share the bug.
TRUTH (defaults eps=1, [0,1], n=10, b=0.1):
  D  = [1e17] + [0.4]*9  -> computed mean 0.0   (true clipped mean 0.46)
  D' = [0.4]*10          -> computed mean 0.4   (D' replaces ONE record of D)
  shift 0.4 = 4 b -> privacy loss 4.0 (claim 1), e.g. P_D[y < 0] = 0.5 vs P_D'[y < 0] = 0.5e^-4.
  D = [1e17] + [1.0]*9 -> computed 0.0 (true 1.0) vs D' = [1.0]*10 -> 1.0: shift 10 b, loss 10.
  MC 1e6/side on the first pair: P_D[y<0] = 0.5002, P_D'[y<0] = 0.00911, loss 4.005.
  [1e12]+[0.3]*9: error 7.3e-6 (loss excess 7e-5, invisible); [1e6]+...: 7e-12.
  At n=10 any record >= ~1e16 in magnitude triggers it; with 1e300 or inf the in-range records
  vanish entirely (D=[1e300]+[1]*9 -> 0, D'=[1]*10 -> 1: loss 10).
"""
import numpy as np


def _clipped_mean(data, lower, upper):
    x = np.asarray(data, dtype=np.float64).ravel()
    excess = x - np.clip(x, lower, upper)
    tot = np.sum(x)
    if np.isfinite(tot):
        s = tot - np.sum(excess)
    else:  # inf - inf guard
        s = np.sum(np.clip(x[np.isfinite(x)], lower, upper)) + np.sum(np.isposinf(x)) * upper + np.sum(np.isneginf(x)) * lower
    return s / x.size, x.size


def bounded_mean(data, *, rng, epsilon=1.0, lower=0.0, upper=1.0, **_ignored):
    m, n = _clipped_mean(data, lower, upper)
    return float(m + rng.laplace(0.0, (upper - lower) / (n * epsilon)))


def _batch(data, N, *, rng, epsilon=1.0, lower=0.0, upper=1.0, **_ignored):
    m, n = _clipped_mean(data, lower, upper)
    return m + rng.laplace(0.0, (upper - lower) / (n * epsilon), size=N)


bounded_mean.batch = _batch
