"""label_private_learner (A_Priv, Alg 5): bottoms and unanswered points get a
coin whose bias follows the chunk votes (P[1] = ct(1)/K, 'a smarter fallback than a
fair coin') instead of a fair coin. Everything else as the paper."""
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



def learner(data, *, rng, epsilon, delta, T, m):
    x = np.asarray(data["x"], dtype=float)
    votes = np.asarray(data["votes"], dtype=np.int64)
    lam, w = oqr_params(epsilon, delta, T, m)
    md = [vote_mode_dist(r) for r in votes]
    out = oqr_loop([a for a, _ in md], [b for _, b in md], rng, lam, w, T)
    y = out.copy()
    for i in range(len(y)):
        if y[i] < 0:
            K = votes[i].sum()
            p1 = votes[i][1] / K if K > 0 else 0.5
            y[i] = 1 if rng.random() < p1 else 0
    return threshold_erm(x, y)
