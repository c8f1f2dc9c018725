"""svt_lyu_2 -- VALID VARIANT (tester ta).

Lyu-Su-Li Algorithm 2 (Dwork-Roth Sparse, delta = 0):
  eps1 = eps2 = epsilon/2; rho ~ Lap(c/eps1); for each query nu ~ Lap(2c/eps1);
  top iff q + nu >= T + rho, then rho is re-drawn ~ Lap(c/eps2); abort after the c-th top.

Written differently: a callable class; input turned into a Python list; per-call only; all
randomness from two child generators spawned from rng (rng.spawn(2): one stream for the
threshold draws, one for the query noises); Laplace drawn by inverse CDF from uniforms
(X = -b sign(u) ln(1 - 2|u|), u ~ U[-1/2, 1/2)) instead of rng.laplace; comparison rewritten
as (q - T) + nu - rho > 0 (strict; ties have probability 0 with continuous noise).
TRUTH: same law as the spec's algorithm (exact Laplace sampler; independent streams carry
independent noises; the >= vs > difference is a null event), so epsilon-DP with epsilon = 1 at
the defaults.
"""
import math

import numpy as np


def _lap(g, b):
    while True:
        u = g.random() - 0.5
        a = 1.0 - 2.0 * abs(u)
        if a > 0.0:
            return -b * math.copysign(1.0, u) * math.log(a)


class SVT2:
    def __call__(self, data, *, rng, epsilon, threshold, c, **_ignored):
        qs = [float(x) for x in np.asarray(data, dtype=float).reshape(-1).tolist()]
        g_thr, g_q = rng.spawn(2)
        c = int(c)
        eps1 = epsilon / 2.0
        eps2 = epsilon - eps1
        rho = _lap(g_thr, c / eps1)
        out = [-1] * len(qs)
        tops = 0
        for i, q in enumerate(qs):
            nu = _lap(g_q, 2.0 * c / eps1)
            if (q - threshold) + nu - rho > 0.0:
                out[i] = 1
                tops += 1
                if tops >= c:
                    break
                rho = _lap(g_thr, c / eps2)
            else:
                out[i] = 0
        return np.array(out, dtype=np.int8)


svt = SVT2()
