"""report_noisy_max -- BUG (random sign from a biased source).

Laplace noise built as sign * Exp(2/epsilon) with sign = rng.integers(-1, 2, size=k), meant to be
'-1 or +1' but integers(-1, 2) draws from {-1, 0, 1}: each noise is 0 w.p. 1/3 and Lap-like
otherwise (the law 1/3 delta_0 + 2/3 Lap(2/eps)).
TRUTH (Monte Carlo in the report, epsilon = 1): the index law differs from the spec, and the
privacy loss exceeds epsilon: see REPORT.md for the pair and numbers.
"""
import numpy as np


def rnm(data, *, rng, epsilon=1.0, **_):
    q = np.asarray(data, dtype=np.float64).ravel()
    k = q.size
    sign = rng.integers(-1, 2, size=k)          # intended: -1 or +1
    noise = sign * rng.exponential(2.0 / float(epsilon), size=k)
    return int(np.argmax(q + noise))
