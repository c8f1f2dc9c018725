"""svt_lyu_2 -- BUG (privacy, triggered by a property of the INPUT: answers sorted non-decreasingly).

What it is: the plain Algorithm 2 loop of svt2_plain.py (valid) with a fast path for the common
case of threshold queries at increasing cut points / cumulative counts: when the answers are
non-decreasing the programmer assumes "once above the threshold, always above", and finds each
segment's first top by BINARY SEARCH over the remaining answers (each probe a fresh noisy
comparison q_i + nu_i >= T + rho, same scales, same rho re-draws), printing bottoms before it.
Unsorted inputs take the exact sequential loop.
TRUTH (defaults epsilon 1, T 0, c 1: rho ~ Lap(2), nu ~ Lap(4)): D = [0]*8 (sorted) vs
D' = [1, 0, 0, 0, 0, 0, 0, 0] (the first answer moved by 1; unsorted, sequential loop).
Output "top at query 1" needs four probe tops on D (indices 4, 2, 1, 0):
  P_D = E_rho[P(nu >= rho)^4],  P_D' = E_rho[P(1 + nu >= rho)]  (quadrature: see b3_truth.py).
Exact: P_D = 0.12917, P_D' = 0.58189, loss ln(0.58189/0.12917) = 1.505 > 1 (m = 16: 1.826,
m = 64: 2.353).  Monte Carlo with this file, 1e5 calls a side: 0.12865 vs 0.58371 (loss 1.512).  No .batch.
"""
import math

import numpy as np


class SVT2:
    @staticmethod
    def _lap(rng, b):
        while True:
            u = rng.random() - 0.5
            if abs(u) < 0.5:
                break
        s = 1.0 if u > 0 else -1.0
        return -b * s * math.log1p(-2.0 * abs(u))

    def __call__(self, data, *, rng, epsilon=1.0, threshold=0.0, c=1, **_):
        answers = [float(v) for v in np.asarray(data, dtype=float).ravel()]
        c = int(c)
        eps1 = epsilon / 2.0
        eps2 = epsilon - eps1
        rho = self._lap(rng, c / eps1)
        m = len(answers)
        if m >= 2 and all(answers[j] <= answers[j + 1] for j in range(m - 1)):
            # fast path: monotone answers -> binary search for each segment's first top
            out = []
            start, tops = 0, 0
            while start < m and tops < c:
                lo, hi = start, m
                while lo < hi:
                    mid = (lo + hi) // 2
                    nu = self._lap(rng, 2.0 * c / eps1)
                    if answers[mid] + nu >= threshold + rho:
                        hi = mid
                    else:
                        lo = mid + 1
                out.extend([0] * (lo - start))
                if lo == m:
                    start = m
                    break
                out.append(1)
                tops += 1
                start = lo + 1
                if tops < c:
                    rho = self._lap(rng, c / eps2)
            out.extend([-1] * (m - len(out)))
            return np.array(out, dtype=np.int8)
        out = []
        tops = 0
        for q in answers:
            if tops >= c:
                out.append(-1)
                continue
            nu = self._lap(rng, 2.0 * c / eps1)
            if q + nu >= threshold + rho:
                out.append(1)
                tops += 1
                if tops < c:
                    rho = self._lap(rng, c / eps2)
            else:
                out.append(0)
        return np.array(out, dtype=np.int8)


svt = SVT2()
