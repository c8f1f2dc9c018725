"""(v2: same bug, teachers vectorised with numpy after v1 timed out at 900 s)
subsample_aggregate_prediction, BUG: the soft-majority coin is drawn on a 1/1000 grid.

The developer flips the biased coin as `rng.integers(0, 1000) / 1000 < p` ("three
decimals is plenty"), p = exp(eps nu/2)/(1 + exp(eps nu/2)), nu = c1 - c0.
Then P[1] = ceil(1000 p)/1000 (1000 p never an integer here), P[0] = 1 - ceil(1000 p)/1000.

TRUTH (exact), default point epsilon = 1 (r = 23): P[0] = 0 as soon as p > 0.999,
i.e. nu >= 15, while at nu = 13 p = 0.998499, ceil(998.499) = 999, P[0] = 0.001.
Pair votes (c0, c1) = (5, 18) [nu = 13] vs (4, 19) [nu = 15] (one vote moves):
output 0 has probability 1e-3 vs 0  ->  privacy loss = infinity (claim epsilon = 1).
(Same on the mirror side? No: P[1] >= 0.001 for every nu, so the lower tail only
distorts: at nu = -23 P[1] = 0.001 instead of 1.0e-5; ratios there stay <= e^eps.)
The stress cases W1_* / near_centre_tail do not contain the nu = 13 -> 15 pair.
At the stress point epsilon = 4, alpha = 0.5 (r = 4): votes (1, 3) [nu = 2, p = 0.98201 -> P[0] = 0.017]
vs (0, 4) [nu = 4, p = 0.999665 -> P[0] = 0]: infinite loss on output 0, a 1.7% event.
(The lower side (4,0) vs (3,1) gives P[1] = 0.001 vs 0.018: loss 2.89 < 4.)
"""
import numpy as np


def _coin(nu, epsilon, rng):
    z = epsilon * nu / 2.0
    p = 1.0 / (1.0 + np.exp(-z)) if z >= 0 else np.exp(z) / (1.0 + np.exp(z))
    u = rng.integers(0, 1000) / 1000.0
    return 1 if u < p else 0


def _teacher_votes(X, y, x, r):
    m = len(X) // r
    Xb = X[: r * m].reshape(r, m)
    yb = y[: r * m].reshape(r, m)
    t = np.where(yb == 1, Xb, np.inf).min(axis=1) if m > 0 else np.full(r, np.inf)
    return (x >= t).astype(int)


def subsample_aggregate_prediction(data, *, rng, epsilon, alpha, beta, delta, d):
    if isinstance(data, dict):
        r = int(np.ceil(6 * np.log(4 / alpha) / epsilon))
        X = np.asarray(data["X"], dtype=float)
        y = np.asarray(data["y"]).astype(int)
        xs = np.asarray(data["x"], dtype=float)
        if xs.ndim == 0:
            v = _teacher_votes(X, y, float(xs), r)
            return _coin(2 * int(v.sum()) - r, epsilon, rng)
        out = np.empty(xs.shape[0], dtype=np.int8)
        for i, x in enumerate(xs):
            v = _teacher_votes(X, y, float(x), r)
            out[i] = _coin(2 * int(v.sum()) - r, epsilon, rng)
        return out
    c = np.asarray(data).reshape(-1)
    nu = int(c[1]) - int(c[0])
    return _coin(nu, epsilon, rng)
