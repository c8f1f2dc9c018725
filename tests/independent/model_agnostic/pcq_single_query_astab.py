"""private_classification_queries: with a single query the engineer skips the
sparse vector and calls A_stab (Alg 2) at the full (epsilon, delta):
Gamma = log(1/delta)/epsilon, noise Lap(1/epsilon) on the printed dist
(which moves by up to 2 under one vote move: erratum E1). m >= 2 rows: Alg 4 as printed."""
import math

import numpy as np


# (the tester's shared helpers, common.py, inlined)
def oqr_params(epsilon, delta, T, m):
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    return lam, w


def vote_mode_dist(row):
    row = np.asarray(row, dtype=np.int64)
    mode = int(np.argmax(row))          # ties -> smallest label
    if row.size == 1:
        second = 0
    else:
        second = int(np.partition(row, -2)[-2])
    dist = max(0, int(row[mode]) - second - 1)
    return mode, dist


def oqr_loop(labels, dists, rng, lam, w, T):
    """Algorithm 3: returns int64 array, -1 bottom, -2 not answered."""
    m = len(labels)
    out = np.full(m, -2, dtype=np.int64)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i in range(m):
        if c > T:
            break
        if dists[i] + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = labels[i]
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out


def threshold_erm(x, y):
    x = np.asarray(x, dtype=float)
    y = np.asarray(y)
    cands = np.concatenate([np.unique(x), [np.inf]])
    best_t, best_e = None, None
    for t in cands:
        e = int(np.sum((y == 1) & (x < t)) + np.sum((y == 0) & (x >= t)))
        if best_e is None or e < best_e:
            best_t, best_e = t, e
    return float(best_t)



def classify(data, *, rng, epsilon, delta, T, m):
    votes = np.atleast_2d(np.asarray(data, dtype=np.int64))
    md = [vote_mode_dist(r) for r in votes]
    if len(votes) == 1:
        mode, dist = md[0]
        gamma = math.log(1.0 / delta) / epsilon
        rel = dist + rng.laplace(0.0, 1.0 / epsilon) > gamma
        return np.array([mode if rel else -1], dtype=np.int64)
    lam, w = oqr_params(epsilon, delta, T, m)
    return oqr_loop([a for a, _ in md], [b for _, b in md], rng, lam, w, T)


def _batch(data, n, *, rng, epsilon, delta, T, m):
    votes = np.atleast_2d(np.asarray(data, dtype=np.int64))
    md = [vote_mode_dist(r) for r in votes]
    k = len(votes)
    if k == 1:
        mode, dist = md[0]
        gamma = math.log(1.0 / delta) / epsilon
        rel = dist + rng.laplace(0.0, 1.0 / epsilon, size=n) > gamma
        return np.where(rel, mode, -1).astype(np.int64).reshape(n, 1)
    lam, w = oqr_params(epsilon, delta, T, m)
    thr = w + rng.laplace(0.0, lam, size=(n, T + 2))
    noisy = np.array([d for _, d in md], dtype=float) + rng.laplace(0.0, 2.0 * lam, size=(n, k))
    out = np.full((n, k), -2, dtype=np.int64)
    c = np.zeros(n, dtype=np.int64)
    for i in range(k):
        live = c <= T
        top = noisy[:, i] > thr[np.arange(n), np.minimum(c, T + 1)]
        out[live & top, i] = md[i][0]
        bot = live & ~top
        out[bot, i] = -1
        c = c + bot
    return out


classify.batch = _batch
