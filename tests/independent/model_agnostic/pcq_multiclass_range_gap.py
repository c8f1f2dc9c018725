"""Private online classification queries (000 Sec. 4.1, Algorithm 4 instantiated
with h_j(x_i)); multi-class votes (Remark 1).

The margin of the mode is measured against the least-voted label
(top minus bottom of the vote row), "how far the winner is ahead of the field".
"""
import numpy as np


def _run(votes, n, rng, epsilon, delta, T, m):
    v = np.asarray(votes, dtype=np.int64)
    if v.ndim == 1:
        v = v[None, :]
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * np.log(2.0 * m / delta)
    mode = np.argmax(v, axis=1)                      # ties -> smallest label
    top = v.max(axis=1)
    low = v.min(axis=1)
    dist = np.maximum(0, top - low - 1).astype(float)
    q = v.shape[0]
    out = np.full((n, q), -2, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam, size=n)
    c = np.zeros(n, dtype=np.int64)
    for i in range(q):
        active = c <= T
        nu = rng.laplace(0.0, 2.0 * lam, size=n)
        hit = dist[i] + nu > w_hat
        out[active & hit, i] = mode[i]
        bot = active & ~hit
        out[bot, i] = -1
        c[bot] += 1
        w_hat = np.where(bot, w + rng.laplace(0.0, lam, size=n), w_hat)
    return out


def classify(data, *, rng, epsilon, delta, T, m, beta=None, alpha=None,
             gamma=None, V=None, xi=None):
    return _run(data, 1, rng, epsilon, delta, T, m)[0]


def _batch(data, n, *, rng, epsilon, delta, T, m, beta=None, alpha=None,
           gamma=None, V=None, xi=None):
    return _run(data, n, rng, epsilon, delta, T, m)


classify.batch = _batch
