"""A_Priv (000 Algorithm 5): label the public points with the Sec. 4.1 mechanism (Algorithm 4
with the printed distance), then ERM over 1-D thresholds on the labelled public points.

Bottoms and unanswered points need a label for the ERM step; the paper uses a fair coin.  We use
a coin biased by the vote share of the point (ct(1)/K), which is still "a random label" but far
more often the right one.
"""
import math

import numpy as np


def _consts(epsilon, delta, T, m):
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    return lam, w


def _erm(x, yh):
    """argmin over t of #{x >= t, y = 0} + #{x < t, y = 1}; ties -> smallest t; +inf = all 0."""
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], yh[order]
    cands = np.unique(xs)
    best_t, best_e = np.inf, int((ys == 1).sum())     # all-zero labelling
    for t in cands[::-1]:                              # descending, so ties end on the smallest t
        e = int(((xs >= t) & (ys == 0)).sum() + ((xs < t) & (ys == 1)).sum())
        if e <= best_e:
            best_t, best_e = float(t), e
    return best_t


def _labels(votes, rng, lam, w, T):
    votes = np.asarray(votes, int)
    m = votes.shape[0]
    K = votes.sum(axis=1)
    mode = np.argmax(votes, axis=1)                    # ties -> label 0
    top = votes.max(axis=1)
    runner = np.where(mode == 0, votes[:, 1], votes[:, 0])
    dist = np.maximum(0, top - runner - 1)
    yh = np.full(m, -1, int)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i in range(m):
        if c > T:
            break
        if dist[i] + rng.laplace(0.0, 2 * lam) > w_hat:
            yh[i] = mode[i]
        else:
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    # bottoms and unanswered points: a coin with the vote share as its bias
    miss = yh < 0
    share = votes[:, 1] / np.maximum(K, 1)
    coins = (rng.random(m) < share).astype(int)
    yh[miss] = coins[miss]
    return yh


def lpl_vote_coins(data, *, rng, epsilon, delta, T, m, **_):
    x = np.asarray(data["x"], float)
    lam, w = _consts(epsilon, delta, T, m)
    yh = _labels(data["votes"], rng, lam, w, T)
    return float(_erm(x, yh))


def _batch(data, n, *, rng, epsilon, delta, T, m, **_):
    x = np.asarray(data["x"], float)
    votes = np.asarray(data["votes"], int)
    mm = votes.shape[0]
    lam, w = _consts(epsilon, delta, T, m)
    K = votes.sum(axis=1)
    mode = np.argmax(votes, axis=1)
    top = votes.max(axis=1)
    runner = np.where(mode == 0, votes[:, 1], votes[:, 0])
    dist = np.maximum(0, top - runner - 1)
    thr = w + rng.laplace(0.0, lam, size=(n, T + 1))
    qn = rng.laplace(0.0, 2 * lam, size=(n, mm))
    rows = np.arange(n)
    yh = np.full((n, mm), -1, int)
    c = np.zeros(n, int)
    for i in range(mm):
        active = c <= T
        topi = dist[i] + qn[:, i] > thr[rows, np.minimum(c, T)]
        yh[active & topi, i] = mode[i]
        c = c + (active & ~topi)
    share = votes[:, 1] / np.maximum(K, 1)
    coins = (rng.random((n, mm)) < share[None, :]).astype(int)
    yh = np.where(yh < 0, coins, yh)
    # ERM over thresholds, vectorised: candidates = sorted unique x (ascending) then +inf
    cands = np.unique(x)
    ge = x[None, :] >= cands[:, None]                           # (C, m)
    err = ((ge[None, :, :] & (yh[:, None, :] == 0)).sum(-1)
           + ((~ge[None, :, :]) & (yh[:, None, :] == 1)).sum(-1))  # (n, C)
    err_inf = (yh == 1).sum(-1)
    best = err.min(axis=1)
    first = err.argmin(axis=1)                                  # smallest t among ties
    t = np.where(best <= err_inf, cands[first], np.inf)
    return t


lpl_vote_coins.batch = _batch
