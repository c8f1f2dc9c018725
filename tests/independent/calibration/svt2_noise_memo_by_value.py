"""svt_lyu_2 -- BUG (privacy) (tester ta).

Lyu-Su-Li Algorithm 2, but the query noise is memoised per distinct answer value within a call
("repeated queries get consistent noisy answers"): nu is drawn once per distinct value of q and
reused whenever the same value comes again.  With all-distinct answers this is exactly the
spec's law; with repeated answers the comparisons of equal values are correlated.

TRUTH (defaults epsilon = 1, T = 0, c = 1): D = [0, 0] vs D' = [0, 1] (every answer moves by
<= 1).  On D both queries see the same nu and the same rho (rho is only re-drawn after a top,
and c = 1 aborts there), so the transcript (0, 1) is impossible: P_D[(0, 1)] = 0.
On D' the two noises are distinct: P_D'[(0, 1)] = P[nu1 < rho <= 1 + nu2] > 0 (MC 2e5 runs:
0.2518; the spec's algorithm: 0.2082 on D, 0.2489 on D').  Infinite privacy loss (pure claim epsilon = 1).
Same with D = [0]*10 vs D' = [0]*9 + [1]: 'first top at position 10' impossible on D.
"""
import numpy as np


def svt(data, *, rng, epsilon, threshold, c, **_ignored):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    c = int(c)
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    rho = rng.laplace(0.0, c / eps1)
    out = np.full(q.shape[0], -1, dtype=np.int8)
    memo = {}
    tops = 0
    for i in range(q.shape[0]):
        key = float(q[i])
        if key not in memo:                      # BUG: noise shared by equal answers
            memo[key] = rng.laplace(0.0, 2.0 * c / eps1)
        nu = memo[key]
        if q[i] + nu >= threshold + rho:
            out[i] = 1
            tops += 1
            if tops >= c:
                break
            rho = rng.laplace(0.0, c / eps2)
        else:
            out[i] = 0
    return out


def _batch(data, n, *, rng, epsilon, threshold, c, **_ignored):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    c = int(c)
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    rho = rng.laplace(0.0, c / eps1, size=n)
    out = np.full((n, q.shape[0]), -1, dtype=np.int8)
    alive = np.ones(n, dtype=bool)
    tops = np.zeros(n, dtype=np.int64)
    memo = {}
    for i in range(q.shape[0]):
        key = float(q[i])
        if key not in memo:                      # same BUG, vectorised
            memo[key] = rng.laplace(0.0, 2.0 * c / eps1, size=n)
        top = alive & (q[i] + memo[key] >= threshold + rho)
        out[:, i] = np.where(alive, np.where(top, 1, 0), -1)
        tops += top
        rho = np.where(top, rng.laplace(0.0, c / eps2, size=n), rho)
        alive &= tops < c
    return out


svt.batch = _batch
