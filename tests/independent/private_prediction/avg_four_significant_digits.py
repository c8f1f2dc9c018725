"""averaged_learner_corrected -- BUG (structural: Lemma 2 stability; value-dependent rounding).

What it is: A'(S') = (1/r) sum_j data[j], then "tidied" for logging/serving with 4
significant digits: float(f"{mean:.4g}").  For predictions in [-1, 1] the rounding grid is
<= 1e-4 (relative error <= 5e-5, invisible); the grid grows with the value: 0.1 at
|mean| in [100, 1000), 1 at [1000, 10000), 10 above.

TRUTH: Lemma 2 says a move of gamma in one block moves A' by at most gamma/r.  With
gamma = 1, r = 4: data (1000, 1000, 1000, 1001.9) -> mean 1000.475 -> 1000.0; the
neighbour (1000, 1000, 1000, 1002.9) -> mean 1000.725 -> 1001.0: the output moves by 1.0
= 4 x gamma/r.  At |values| >= 10^4: (10000, 10000, 10000, 10019.5) -> 10004.875 -> 10000 vs
(10000, 10000, 10000, 10020.5) -> 10005.125 -> 10010 (checked): moves up to 10 for a gamma = 1 move (40x).  Values of order 1: deviation <= 5e-5 from the
exact mean.  The expectation/tail statements (Jensen) still hold up to the rounding.
"""
import numpy as np


def average(data, *, rng=None, **params):
    a = np.asarray(data, dtype=np.float64)
    m = float(a.mean())
    return float(f"{m:.4g}")


def _batch(data, n, *, rng=None, **params):
    return np.full(n, average(data), dtype=np.float64)


average.batch = _batch
