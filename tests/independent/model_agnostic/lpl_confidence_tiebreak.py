"""A_Priv (000 Algorithm 5): label the public points with the Sec. 4.1 private
classification mechanism (A_OQR over the chunk votes), replace bottoms and
unanswered points by fair coins, and return ERM over 1-D thresholds on the
relabelled sample.

ERM over thresholds is often not unique on small samples; among the
empirically optimal thresholds we keep the one the chunk ensemble is most
confident about (largest total number of chunk votes agreeing with it), then
the smallest.
"""
import math

import numpy as np


def _unpack(data):
    if isinstance(data, dict):
        return np.asarray(data["x"], dtype=float), np.asarray(data["votes"], dtype=np.int64)
    if hasattr(data, "x"):
        return np.asarray(data.x, dtype=float), np.asarray(data.votes, dtype=np.int64)
    x, votes = data
    return np.asarray(x, dtype=float), np.asarray(votes, dtype=np.int64)


def _labels(votes, n, rng, epsilon, delta, T, m):
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    mode = (votes[:, 1] > votes[:, 0]).astype(np.int64)
    dist = np.maximum(0, np.abs(votes[:, 1] - votes[:, 0]) - 1).astype(float)
    q = votes.shape[0]
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
    coins = rng.integers(0, 2, size=(n, q))
    return np.where(out >= 0, out, coins)


def _erm_batch(x, y, votes):
    """ERM over thresholds 1[x >= t], t in the sorted distinct x and +inf, for
    every run (row of y) at once; empirical ties resolved by the ensemble's
    vote support, then by the smallest t."""
    q = x.size
    order = np.argsort(x, kind="stable")
    uniq, first = np.unique(x[order], return_index=True)
    starts = np.concatenate([first, [q]])
    cands = np.concatenate([uniq, [np.inf]])
    ys = y[:, order]
    pre1 = np.concatenate([np.zeros((ys.shape[0], 1), dtype=np.int64), np.cumsum(ys, axis=1)], axis=1)
    idx = np.arange(q + 1)
    pre0 = idx[None, :] - pre1
    tot0 = q - pre1[:, -1]
    err = pre1[:, starts] + (tot0[:, None] - pre0[:, starts])
    vs = votes[order]
    v0 = np.concatenate([[0], np.cumsum(vs[:, 0])])
    v1 = np.concatenate([[0], np.cumsum(vs[:, 1])])
    support = (v0[starts] + (v1[-1] - v1[starts])).astype(float)
    best = err == err.min(axis=1, keepdims=True)
    score = np.where(best, support[None, :], -np.inf)
    return cands[np.argmax(score, axis=1)]


def _run(data, n, rng, epsilon, delta, T, m):
    x, votes = _unpack(data)
    votes = votes.reshape(-1, 2)
    y = _labels(votes, n, rng, epsilon, delta, T, m)
    return _erm_batch(x, y, votes).astype(float)


def a_priv(data, *, rng, epsilon, delta, T, m, beta=None, alpha=None, gamma=None, V=None):
    return float(_run(data, 1, rng, epsilon, delta, T, m)[0])


def _batch(data, n, *, rng, epsilon, delta, T, m, beta=None, alpha=None, gamma=None, V=None):
    return _run(data, n, rng, epsilon, delta, T, m)


a_priv.batch = _batch
