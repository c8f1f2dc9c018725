"""A_binClas (004 Algorithm 2), conference version.

The threshold w = 2 lam log(2m/delta) is calibrated for the k chunks of the
algorithm (k = 34 sqrt(2) lam log(4mT/min(delta, beta/2))); when the vote rows
come from a different number K of chunk classifiers the threshold is
expressed per voter and rescaled to K so that the stability level stays the
same fraction of the ensemble.
"""
import math

import numpy as np


def _run(votes, n, rng, epsilon, delta, T, m, beta):
    v = np.asarray(votes, dtype=np.int64).reshape(-1, 2)
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    k = math.ceil(34.0 * math.sqrt(2.0) * lam * math.log(4.0 * m * T / min(delta, beta / 2.0)))
    K = int(v[0].sum()) if v.shape[0] else k
    w_eff = w * K / k                                  # threshold per voter, times K
    mode = (v[:, 1] > v[:, 0]).astype(np.int64)        # ties -> 0
    dist = np.maximum(0, np.abs(v[:, 0] - v[:, 1]) - 1).astype(float)
    q = v.shape[0]
    out = np.full((n, q), -2, dtype=np.int64)
    w_hat = w_eff + rng.laplace(0.0, lam, size=n)
    c = np.zeros(n, dtype=np.int64)
    for i in range(q):
        active = c <= T
        nu = rng.laplace(0.0, 2.0 * lam, size=n)
        hit = dist[i] + nu > w_hat
        out[active & hit, i] = mode[i]
        bot = active & ~hit
        out[bot, i] = -1
        c[bot] += 1
        w_hat = np.where(bot, w_eff + rng.laplace(0.0, lam, size=n), w_hat)
    return out


def bin_clas(data, *, rng, epsilon, delta, T, m, beta, alpha=None, gamma=None,
             V=None, n=None, xi=None):
    return _run(data, 1, rng, epsilon, delta, T, m, beta)[0]


def _batch(data, n, *, rng, epsilon, delta, T, m, beta, alpha=None, gamma=None,
           V=None, xi=None, **extra):
    return _run(data, n, rng, epsilon, delta, T, m, beta)


bin_clas.batch = _batch
