"""svt_lyu_1 -- BUG (verdict memoised by answer value within a run).

What it is: Lyu-Su-Li Algorithm 1 (rho = Lap(1/eps1) once, nu_i = Lap(2c/eps2) per query,
abort after c tops), but the top/bottom verdict of a query is cached in a dict keyed by
the answer value: a later query with an identical answer q_j == q_i reuses the verdict
("same answer, same comparison") instead of drawing fresh noise.

TRUTH (eps = 1, T = 0, c = 1, eps1 = eps2 = 0.5): infinite privacy loss.
D = [0, 0]: the second answer repeats the first, so after a bottom the second is bottom:
transcript (0, 1) has probability 0. D' = [0, 1] (second answer moved by 1):
P[(0, 1)] = P[nu_1 < rho <= 1 + nu_2] = 0.2504 (Monte Carlo, 4e6 runs; the file
itself: 25282 of 1e5 calls on D', 0 of 1e5 on D). Same on any
list with a repeated answer (e.g. [0]*5 vs [0,1,0,0,0]: transcript (0,1,-1,-1,-1)).
Lists of distinct answers get the exact law.
"""
import numpy as np


def svt(data, *, rng, **params):
    eps = float(params["epsilon"])
    T = float(params["threshold"])
    c = int(params["c"])
    eps1 = eps / 2.0
    eps2 = eps - eps1
    q = np.asarray(data, dtype=float).ravel()
    m = q.size
    out = np.full(m, -1, dtype=np.int8)
    rho = rng.laplace(0.0, 1.0 / eps1)
    seen = {}
    tops = 0
    for i in range(m):
        key = float(q[i])
        if key in seen:                                   # BUG: reuse verdict of an equal answer
            v = seen[key]
        else:
            v = 1 if q[i] + rng.laplace(0.0, 2.0 * c / eps2) >= T + rho else 0
            seen[key] = v
        out[i] = v
        if v == 1:
            tops += 1
            if tops >= c:
                break
    return out
