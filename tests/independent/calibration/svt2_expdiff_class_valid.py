"""svt_lyu_2 -- VALID VARIANT.

Lyu-Su-Li Algorithm 2 (Dwork-Roth) written as a class with __call__, per call only (no
.batch), on Python lists.  Laplace variates are drawn as b*(E1 - E2), E1, E2 ~ Exp(1)
obtained by inversion -log(1 - U) of rng.random() uniforms (the difference of two i.i.d.
Exp(1) is exactly Laplace(0, 1)).  The comparison is written as (q_i - T) - rho >= -nu_i,
algebraically the same event as q_i + nu_i >= T + rho.

TRUTH: same law as the spec: rho ~ Lap(c/eps1) at the start and after each top,
nu_i ~ Lap(2c/eps1) fresh per query, halt after the c-th top (-1 for unanswered queries),
eps1 = eps2 = epsilon/2.  epsilon-DP (Fact SVT2).
"""
import math

import numpy as np


class SparseVector2:
    @staticmethod
    def _lap(rng, b):
        e1 = -math.log1p(-rng.random())
        e2 = -math.log1p(-rng.random())
        return b * (e1 - e2)

    def __call__(self, data, *, rng, epsilon, threshold, c, **_):
        q = [float(x) for x in np.ravel(np.asarray(data, dtype=float))]
        eps1 = epsilon / 2.0
        eps2 = epsilon - eps1
        out = [-1] * len(q)
        rho = self._lap(rng, c / eps1)
        tops = 0
        for i, qi in enumerate(q):
            nu = self._lap(rng, 2.0 * c / eps1)
            if (qi - threshold) - rho >= -nu:
                out[i] = 1
                tops += 1
                if tops >= c:
                    break
                rho = self._lap(rng, c / eps2)
            else:
                out[i] = 0
        return np.array(out, dtype=np.int8)


svt = SparseVector2()
