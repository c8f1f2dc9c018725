"""private_classification_queries_conference, BUG: threshold w computed with log10.

Algorithm 2 of 004 written faithfully (threshold w_hat = w + Lap(lam) drawn at the start and
redrawn after every bottom, dist = max(0, ct(q) - ct(1-q) - 1), dist + Lap(2 lam) > w_hat
releases q, ties to label 0, halt once c > T, -2 for rows not answered), except that the
developer wrote w = 2 lam log10(2m/delta) (the paper's `log` read as decimal log).

TRUTH (exact) at the default point (eps = 8, delta = 1e-3, T = 1, m = 4): lam = 1.94947,
correct w = 35.04, buggy w = 2 lam log10(8000) = 15.218, w/(2 lam) = 3.903.
Per-query release probability of an unstable query (dist = 0, fresh threshold):
S(w) = (2/3) e^(-w/(2 lam)) - (1/6) e^(-w/lam) = 0.013447 - 0.000068 = 0.01338 (vs 8.3e-5 correct).
Pair mode_flip_single_query (row 1 gap 1 with label 0 on top; neighbour flips one vote so label 1
is on top, dist 0 on both sides): event {out_1 = 0} has probability 0.01338 on D and 0 on D',
so delta(eps = 8) >= 0.0134 > 1e-3 = claimed delta (13x). At eps = 1, 0.5 the same event and
figure (w does not depend on eps except through lam: at eps = 1 lam = 15.6, w = 121.7, S =
0.0134 again since w/(2 lam) = log10(8000) regardless of eps).
"""
import numpy as np


def private_classification_queries_conference(data, *, rng, epsilon, delta, T, m, beta,
                                              alpha, gamma, V, n, xi):
    votes = np.asarray(data).astype(np.int64).reshape(-1, 2)
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * np.log10(2.0 * m / delta)          # BUG: log10 instead of ln
    w_hat = w + rng.laplace(0.0, lam)
    c = 0
    out = np.full(votes.shape[0], -2, dtype=np.int64)
    for i in range(votes.shape[0]):
        if c > T:
            break
        ct0, ct1 = int(votes[i, 0]), int(votes[i, 1])
        qh = 0 if ct0 >= ct1 else 1
        top, other = (ct0, ct1) if qh == 0 else (ct1, ct0)
        dist = max(0, top - other - 1)
        if dist + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = qh
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out
