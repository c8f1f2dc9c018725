"""svt_lyu_1 -- BUG (query noise shrinks with the remaining cutoff: 'budget of the tops left').

Lyu-Su-Li Algorithm 1, but the query noise scale is 2*(c - tops)*Delta/eps2 (the tops still
allowed) instead of 2*c*Delta/eps2. Identical to the spec at c = 1 (tops = 0 until the abort).
TRUTH at c >= 2: the j-th top is charged 2/(2(c-j+1)/eps2) = eps2/(c-j+1) instead of eps2/c, so
the proof's bound is eps1 + eps2 * H_c (H_c harmonic number): c = 2, eps = 1: 0.5 + 0.75 = 1.25 > 1.
See REPORT.md for the Monte-Carlo pair.
"""
import numpy as np


def svt(data, *, rng, epsilon=1.0, threshold=0.0, c=1, **_):
    q = np.asarray(data, dtype=np.float64).ravel()
    m = q.size
    c = int(c)
    eps1 = float(epsilon) / 2.0
    eps2 = float(epsilon) - eps1
    rho = rng.laplace(0.0, 1.0 / eps1)
    out = np.full(m, -1, dtype=np.int8)
    tops = 0
    for i in range(m):
        nu = rng.laplace(0.0, 2.0 * (c - tops) / eps2)
        if q[i] + nu >= threshold + rho:
            out[i] = 1
            tops += 1
            if tops >= c:
                break
        else:
            out[i] = 0
    return out
