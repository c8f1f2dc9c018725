"""A_Priv (Alg 5 of paper 000) -- VALID variant: all runs vectorised over the leading axis
(loop over the m public points, state c and w_hat kept per run), Laplace draws as
scale * (Exp - Exp) from a child generator, coins as uniforms < 1/2, the per-call function
is the batch with one run returning a numpy float64 scalar, final ERM by the testbed's
threshold_erm (lazy import).  Same law as the spec: A_OQR labelling with cutoff T, printed
dist, ties to 0, fair coins for bottoms and unanswered points, then ERM over thresholds."""
import math

import numpy as np


def _lap(g, scale, size):
    return scale * (g.exponential(size=size) - g.exponential(size=size))


def _batch(data, nruns, *, rng, epsilon, delta, T, m, **unused):
    from dptestbed.impl.learners import threshold_erm
    g = np.random.default_rng(rng.integers(2**63))
    x = np.asarray(data["x"], dtype=float)
    votes = np.asarray(data["votes"], dtype=np.int64)
    M = x.shape[0]
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    w_hat = w + _lap(g, lam, nruns)
    c = np.zeros(nruns, dtype=np.int64)
    y = np.empty((nruns, M), dtype=np.int64)
    for t in range(M):
        c0, c1 = int(votes[t, 0]), int(votes[t, 1])
        mode = 0 if c0 >= c1 else 1
        dist = max(0, abs(c0 - c1) - 1)
        coin = (g.random(nruns) < 0.5).astype(np.int64)
        active = c <= T
        above = (dist + _lap(g, 2.0 * lam, nruns)) > w_hat
        ans = active & above
        bot = active & ~above
        y[:, t] = np.where(ans, mode, coin)
        c = c + bot
        w_hat = np.where(bot, w + _lap(g, lam, nruns), w_hat)
    X = np.broadcast_to(x, (nruns, M))
    return np.asarray(threshold_erm(X, y), dtype=np.float64)


def label_private(data, *, rng, epsilon, delta, T, m, beta=None, alpha=None, gamma=None, V=None):
    return _batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0]


label_private.batch = _batch
