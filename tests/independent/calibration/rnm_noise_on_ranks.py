"""BUG (expected class: claim violated, exit 1). report_noisy_max.

"Scale-free" noisy max: the implementer replaces the answers by their ranks
(r = argsort(argsort(q)), 0 = smallest) before adding Lap(2/epsilon) and taking the
argmax, reasoning that ranks preserve the argmax. But ranks do not have sensitivity 1:
moving each answer by at most 1 can reverse a whole block of close answers, moving a
rank by up to k - 1. Pair (epsilon = 1, k = 3): D = [0, 0.1, 0.2] (ranks [0,1,2]),
D' = [0.9, 0.1, -0.8] (ranks [2,1,0]; each answer moved by <= 1).
P_D(out = 2) = 0.520, P_D'(out = 2) = 0.175 (MC, 4e5) -> loss 1.09 > 1; with k = 5,
D = [0,.1,.2,.3,.4], D' = [.95,.55,.2,-.15,-.55] (ranks reversed, moves <= 0.95):
P_D(out=4) = 0.454, P_D'(out=4) = 0.050 -> loss 2.20 > 1.
For well-separated answers (gaps > 2) the ranks never change and the law differs from
the spec's (it ignores gap sizes), so the law check may also catch it.
"""
import numpy as np


def _ranks(q):
    return np.argsort(np.argsort(q, kind="stable"), kind="stable").astype(float)


def rnm(data, *, rng, epsilon, **_):
    q = np.asarray(data, dtype=float).reshape(-1)
    r = _ranks(q)
    return int(np.argmax(r + rng.laplace(0.0, 2.0 / epsilon, size=q.size)))


def _batch(data, n, *, rng, epsilon, **_):
    q = np.asarray(data, dtype=float).reshape(-1)
    r = _ranks(q)
    return np.argmax(r[None, :] + rng.laplace(0.0, 2.0 / epsilon, size=(n, q.size)), axis=1).astype(np.int64)


rnm.batch = _batch
