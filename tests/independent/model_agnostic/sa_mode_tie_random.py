"""A_subSamp (corrected distance) that breaks a tied mode with a fair coin from rng instead of the fixed
'smallest label' rule (pitfall P11 says a fixed data-independent rule).

DIFFERS: a tied row has dist* = 0, so its label is released only with probability S(w) = 8.3e-5 at the
defaults, and both tie rules give a data-independent choice: privacy still holds, but the released
label law on tied rows differs (each tied label w.p. S(w)/2 instead of S(w) for the smallest).
"""
import math

import numpy as np


def _rows(data):
    v = np.asarray(data, dtype=np.int64)
    v = v.reshape(-1, v.shape[-1])
    ties, dists = [], []
    for row in v:
        best = np.flatnonzero(row == row.max())
        others = np.delete(row, best[0])
        gap = int(row[best[0]] - (others.max() if others.size else 0))
        ties.append(best)
        dists.append(max(0, -(-gap // 2) - 1))
    return ties, np.asarray(dists, dtype=np.float64)


def _draw_modes(ties, N, rng):
    modes = np.empty((N, len(ties)), dtype=np.int64)
    for i, best in enumerate(ties):
        modes[:, i] = best[rng.integers(0, best.size, size=N)] if best.size > 1 else best[0]
    return modes


def _run(modes, dist, N, rng, epsilon, delta, T, m):
    k = dist.size
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    out = np.full((N, k), -2, dtype=np.int64)
    c = np.zeros(N, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam, size=N)
    noisy = dist[None, :] + rng.laplace(0.0, 2.0 * lam, size=(N, k))
    fresh = w + rng.laplace(0.0, lam, size=(N, T + 1))
    for i in range(k):
        live = c <= T
        top = live & (noisy[:, i] > w_hat)
        bot = live & ~top
        out[top, i] = modes[top, i]
        out[bot, i] = -1
        idx = np.nonzero(bot)[0]
        w_hat[idx] = fresh[idx, np.minimum(c[idx], T)]
        c[idx] += 1
    return out


def sa(data, *, rng, epsilon, delta, T, m):
    ties, dist = _rows(data)
    return _run(_draw_modes(ties, 1, rng), dist, 1, rng, epsilon, delta, T, m)[0]


def _batch(data, N, *, rng, epsilon, delta, T, m):
    ties, dist = _rows(data)
    return _run(_draw_modes(ties, N, rng), dist, N, rng, epsilon, delta, T, m)


sa.batch = _batch
