"""Bug: rows processed in increasing order of their noiseless regular distance
(the least stable first, "to spend the budget early"), answers written back in place.

A_SL-Quer (000 Algorithm 6) with H_Priv (Algorithm 8), threshold corrected
(w = 2 lam log(4m/delta), erratum 000-E2).

The histogram statistics of a query (modes and distances of the regular and
of the 1/2-shifted gamma-histogram) are computed once per query up front.
"""
import math

import numpy as np


def _bins(gamma):
    nb = int(round(1.0 / gamma))
    if abs(1.0 / gamma - nb) > 1e-9 / gamma:
        raise ValueError("1/gamma must be an integer")
    return nb


def _regular_index(x, gamma, nb):
    j = np.floor(x / gamma).astype(np.int64)
    j = np.where((j + 1) * gamma <= x, j + 1, j)
    j = np.where(j * gamma > x, j - 1, j)
    return np.clip(j, 0, nb - 1)


def _shifted_index(x, gamma, nb):
    v = np.floor(x / gamma + 0.5).astype(np.int64)
    v = np.where((v + 0.5) * gamma <= x, v + 1, v)
    v = np.where((v - 0.5) * gamma > x, v - 1, v)
    return v  # valid when 1 <= v <= nb - 1


def _mode_gap(hist):
    mode = int(np.argmax(hist))
    if hist.size == 1:
        second = 0
    else:
        second = int(np.sort(hist)[-2])
    return mode, max(0, int(hist[mode]) - second - 1)


def _stats(row, gamma, nb):
    x = np.clip(np.asarray(row, dtype=float), 0.0, 1.0)
    reg = np.bincount(_regular_index(x, gamma, nb), minlength=nb)
    sv = _shifted_index(x, gamma, nb)
    sv = sv[(sv >= 1) & (sv <= nb - 1)]
    sh = np.bincount(sv - 1, minlength=nb - 1)
    rmode, rdist = _mode_gap(reg)
    smode, sdist = _mode_gap(sh)
    return {
        "reg_mid": (rmode + 0.5) * gamma,
        "reg_dist": float(rdist),
        "sh_mid": (smode + 1) * gamma,
        "sh_dist": float(sdist),
    }


def _run(data, n, rng, epsilon, delta, T, m, gamma):
    S = np.asarray(data, dtype=float)
    if S.ndim == 1:
        S = S[None, :]
    nb = _bins(gamma)
    lam = math.sqrt(64.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(4.0 * m / delta)
    q = S.shape[0]
    out = np.empty((n, q, 2))
    out[:, :, 0] = -2.0
    out[:, :, 1] = -1.0
    w_hat = w + rng.laplace(0.0, lam, size=n)
    c = np.zeros(n, dtype=np.int64)
    stats = [_stats(S[i], gamma, nb) for i in range(q)]
    order = sorted(range(q), key=lambda i: stats[i]["reg_dist"])   # least stable first
    for i in order:
        st = stats[i]
        active = c <= T
        nu = rng.laplace(0.0, 2.0 * lam, size=n)
        hit1 = active & (st["reg_dist"] + nu > w_hat)
        out[hit1, i, 0] = st["reg_mid"]
        out[hit1, i, 1] = 0.0
        miss1 = active & ~hit1
        c[miss1] += 1
        w_hat = np.where(miss1, w + rng.laplace(0.0, lam, size=n), w_hat)
        nu2 = rng.laplace(0.0, 2.0 * lam, size=n)
        hit2 = miss1 & (st["sh_dist"] + nu2 > w_hat)
        out[hit2, i, 0] = st["sh_mid"]
        out[hit2, i, 1] = 1.0
        miss2 = miss1 & ~hit2
        out[miss2, i, 0] = -1.0
        out[miss2, i, 1] = 1.0
        c[miss2] += 1
        w_hat = np.where(miss2, w + rng.laplace(0.0, lam, size=n), w_hat)
    return out


def sl_queries(data, *, rng, epsilon, delta, T, m, gamma, beta=None, alpha=None,
               nu=None, n_prime=None):
    return _run(data, 1, rng, epsilon, delta, T, m, gamma)[0]


def _batch(data, n, *, rng, epsilon, delta, T, m, gamma, beta=None, alpha=None,
           nu=None, n_prime=None):
    return _run(data, n, rng, epsilon, delta, T, m, gamma)


sl_queries.batch = _batch
