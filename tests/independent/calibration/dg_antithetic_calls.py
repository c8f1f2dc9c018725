"""discrete_gaussian_mechanism -- BUG (privacy, triggered by the CALL PATTERN: consecutive calls).

What it is: the valid inverse-CDF discrete Gaussian (sigma by Theorem 7, 3.74048 at the defaults)
with a "variance-reduction" optimisation a programmer might copy from Monte-Carlo code:
antithetic variates.  Odd-numbered calls draw Y and remember -Y; the next call releases
f(D) + (-Y) without drawing.  N_Z(0, sigma^2) is symmetric, so every single call has exactly the
spec's law (Fact DG1 and Theorem 7 hold call by call), but two consecutive calls satisfy
  out1 + out2 = f1 + f2   exactly.
TRUTH: a user who releases two answers (two queries, or the same query on two days) with this
library leaks their exact sum.  Two consecutive calls on (f1, f2) = (0, 0) vs (0, 1) (one record
changes the second count by 1 = sensitivity) give out1 + out2 = 0 vs 1 with probability 1:
infinite privacy loss, delta(eps) = 1 for every eps, against the claimed (1, 1e-5) per release
(by composition the pair should be (2, 2e-5)-DP).  Monte Carlo (2e5 pairs of calls each side):
P[out1 + out2 == 0] = 1.0 on (0,0) and 0.0 on (0,1).  Per call: exact law.
No .batch (the state lives in the per-call code, which is what users call).
"""
import math

import numpy as np


def _pmf_table(sigma, K):
    k = np.arange(-K, K + 1, dtype=np.int64)
    w = np.exp(-(k.astype(np.float64) ** 2) / (2.0 * sigma * sigma))
    return k, w / w.sum()


def _delta(eps, sigma, sens):
    K = int(math.ceil(60 * sigma)) + 60 + int(sens)
    k, p = _pmf_table(sigma, K)
    a = eps * sigma * sigma / sens - sens / 2.0
    b = eps * sigma * sigma / sens + sens / 2.0
    return float(p[k > a].sum() - math.exp(eps) * p[k > b].sum())


def _sigma(eps, delta, sens):
    lo, hi = 1.0, 2.0
    while _delta(eps, hi, sens) > delta:
        lo, hi = hi, 2.0 * hi
    while (hi - lo) > 1e-13 * hi:
        mid = 0.5 * (lo + hi)
        if _delta(eps, mid, sens) > delta:
            lo = mid
        else:
            hi = mid
    return hi


class DiscreteGaussian:
    def __init__(self):
        self._tables = {}
        self._spare = None

    def _table(self, eps, delta, sens):
        key = (float(eps), float(delta), int(sens))
        if key not in self._tables:
            sigma = _sigma(*key)
            K = int(math.ceil(60 * sigma)) + 60
            k, p = _pmf_table(sigma, K)
            cdf = np.cumsum(p)
            cdf[-1] = 1.0
            self._tables[key] = (k, cdf)
        return self._tables[key]

    def __call__(self, data, *, rng, epsilon=1.0, delta=1e-5, sensitivity=1, **_):
        if self._spare is not None:          # antithetic partner of the previous call
            y, self._spare = self._spare, None
            return int(round(float(data))) + y
        k, cdf = self._table(epsilon, delta, sensitivity)
        u = rng.random()
        i = int(np.searchsorted(cdf, u, side="right"))
        if i >= len(k):
            i = len(k) - 1
        y = int(k[i])
        self._spare = -y
        return int(round(float(data))) + y


dg = DiscreteGaussian()
