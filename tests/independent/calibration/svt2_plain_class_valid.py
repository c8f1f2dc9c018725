"""svt_lyu_2 -- VALID VARIANT (per-call only; a class with __call__, inverse-CDF Laplace).

What it is: Lyu-Su-Li Algorithm 2 (Dwork-Roth Sparse with delta = 0), written as a plain Python
loop over a list of floats:
  eps1 = eps2 = epsilon/2; rho ~ Lap(c/eps1); for each answer q_i: nu_i ~ Lap(2c/eps1) fresh;
  top iff q_i + nu_i >= T + rho; after a top: count += 1, abort if count == c (rest -1),
  otherwise rho is re-drawn ~ Lap(c/eps2).
Laplace draws come from one uniform each by the inverse CDF
  L = -b * sign(u - 1/2) * log(1 - 2|u - 1/2|)
(instead of numpy's laplace), and the output is built as a Python list then turned into int8.
TRUTH: the same law as the spec (same scales 2 and 4 at the defaults; the inverse CDF of
Lap(b) is exact), hence epsilon-DP with epsilon = 1 (Fact SVT2).  No .batch.
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
