"""A_SL-Quer (000 Alg 6 with H_Priv, Alg 8), threshold corrected (w = 2 lam log(4m/delta)).

Bug (privacy): when a test passes, the released score is the mean of the
soft predictions that fall in the modal bin ('a better estimate than the bin
midpoint, and it still lies in the same bin') instead of the bin midpoint.
Tests, thresholds, Flag, the counter c and halting follow the spec.  The mean
moves with any single chunk's prediction inside the modal bin, so a stable
query is released with an answer that differs on every neighbour.
"""
import math

import numpy as np


def _consts(epsilon, delta, T, m):
    lam = math.sqrt(64.0 * T * math.log(2.0 / delta)) / epsilon
    return lam, 2.0 * lam * math.log(4.0 * m / delta)


def _nbins(gamma):
    nb = int(math.floor(1.0 / gamma + 0.5))
    if abs(1.0 / gamma - nb) > 1e-9 / gamma:
        raise ValueError("1/gamma must be an integer")
    return nb


def _regular_index(x, nb, gamma):
    j = min(int(math.floor(x * nb)), nb - 1)
    while j + 1 <= nb - 1 and x >= (j + 1) * gamma:
        j += 1
    while j > 0 and x < j * gamma:
        j -= 1
    return j                      # 0-based regular bin


def _shifted_index(x, nb, gamma):
    v = int(math.floor(x * nb + 0.5))
    while x >= (v + 0.5) * gamma:
        v += 1
    while v > 0 and x < (v - 0.5) * gamma:
        v -= 1
    return v if 1 <= v <= nb - 1 else None


def _row_stats(s, gamma):
    nb = _nbins(gamma)
    s = np.clip(np.asarray(s, dtype=float), 0.0, 1.0)
    reg = [_regular_index(float(x), nb, gamma) for x in s]
    sh = [_shifted_index(float(x), nb, gamma) for x in s]
    h = np.bincount(reg, minlength=nb)
    hs = np.bincount([v - 1 for v in sh if v is not None], minlength=nb - 1)

    def dist_mode(hist):
        order = np.argsort(-hist, kind="stable")
        top = hist[order[0]]
        second = hist[order[1]] if hist.size > 1 else 0
        return max(0, int(top) - int(second) - 1), int(order[0])

    d0, j0 = dist_mode(h)
    d1, j1 = dist_mode(hs)
    in0 = [x for x, j in zip(s, reg) if j == j0]
    in1 = [x for x, v in zip(s, sh) if v is not None and v - 1 == j1]
    est0 = float(np.mean(in0))                   # should be (2 v* - 1) gamma / 2
    est1 = float(np.mean(in1)) if in1 else (j1 + 1) * gamma   # should be v* gamma
    return d0, est0, d1, est1


def _run(S, n, rng, epsilon, delta, T, m, gamma):
    lam, w = _consts(epsilon, delta, T, m)
    stats = [_row_stats(r, gamma) for r in S]
    rows = len(stats)
    out = np.empty((n, rows, 2))
    out[:, :, 0] = -2.0
    out[:, :, 1] = -1.0
    c = np.zeros(n, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam, size=n)
    for i, (d0, e0, d1, e1) in enumerate(stats):
        active = c <= T
        pass0 = d0 + rng.laplace(0.0, 2.0 * lam, size=n) > w_hat
        w_hat = np.where(~pass0, w + rng.laplace(0.0, lam, size=n), w_hat)
        pass1 = d1 + rng.laplace(0.0, 2.0 * lam, size=n) > w_hat
        a0 = active & pass0
        a1 = active & ~pass0 & pass1
        ab = active & ~pass0 & ~pass1
        out[a0, i, 0], out[a0, i, 1] = e0, 0.0
        out[a1, i, 0], out[a1, i, 1] = e1, 1.0
        out[ab, i, 0], out[ab, i, 1] = -1.0, 1.0
        c = c + a1 + 2 * ab
        w_hat = np.where(ab, w + rng.laplace(0.0, lam, size=n), w_hat)
    return out


def sl_queries(data, *, rng, epsilon, delta, T, m, gamma, beta, alpha, nu, n_prime):
    S = np.atleast_2d(np.asarray(data, dtype=float))
    return _run(S, 1, rng, epsilon, delta, T, m, gamma)[0]


def _batch(data, n, *, rng, epsilon, delta, T, m, gamma, beta, alpha, nu, n_prime):
    S = np.atleast_2d(np.asarray(data, dtype=float))
    return _run(S, n, rng, epsilon, delta, T, m, gamma)


sl_queries.batch = _batch
