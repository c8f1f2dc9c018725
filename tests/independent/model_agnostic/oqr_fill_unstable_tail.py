"""A_OQR (000 Algorithm 3), online query release via distance to instability.

Speed-up: once every remaining query is known to be unstable (distance 0),
they would all come out as bottom anyway, so the tail is filled with bottoms
at once instead of running the noisy test on each of them.
"""
import numpy as np


def _params(epsilon, delta, T, m):
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * np.log(2.0 * m / delta)
    return lam, w


def _run(data, n, rng, epsilon, delta, T, m):
    rows = np.asarray(data, dtype=float).reshape(-1, 2)
    labels = rows[:, 0].astype(np.int64)
    dist = rows[:, 1]
    q = rows.shape[0]
    lam, w = _params(epsilon, delta, T, m)
    out = np.full((n, q), -2, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam, size=n)
    c = np.zeros(n, dtype=np.int64)
    done = np.zeros(n, dtype=bool)
    for i in range(q):
        active = (c <= T) & ~done
        if np.all(dist[i:] == 0):
            # all remaining queries are unstable: they are bottoms anyway
            for j in range(i, q):
                out[active, j] = -1
            break
        nu = rng.laplace(0.0, 2.0 * lam, size=n)
        top = dist[i] + nu > w_hat
        out[active & top, i] = labels[i]
        bot = active & ~top
        out[bot, i] = -1
        c[bot] += 1
        w_hat = np.where(bot, w + rng.laplace(0.0, lam, size=n), w_hat)
    return out


def oqr(data, *, rng, epsilon, delta, T, m, beta=None):
    return _run(data, 1, rng, epsilon, delta, T, m)[0]


def _batch(data, n, *, rng, epsilon, delta, T, m, beta=None):
    return _run(data, n, rng, epsilon, delta, T, m)


oqr.batch = _batch
