"""A_subSamp (seed 000 Algorithm 4) on vote counts: per row, mode = argmax (ties -> smallest label),
gap = top - runner-up; distance dist* = max(0, ceil(gap/2) - 1) (corrected, erratum 000-E1) or the
printed max(0, gap - 1); then A_OQR (Algorithm 3) on (mode, distance). Output as in A_OQR:
label, -1 bottom, -2 not answered."""
import math

import numpy as np


def _rows(data, corrected):
    v = np.asarray(data, dtype=np.int64)
    v = v.reshape(-1, v.shape[-1]) if v.ndim > 1 else v.reshape(1, -1)
    mode = np.argmax(v, axis=1)                     # first maximum = smallest label
    top = v[np.arange(v.shape[0]), mode]
    rest = v.copy()
    rest[np.arange(v.shape[0]), mode] = np.iinfo(np.int64).min
    gap = top - rest.max(axis=1) if v.shape[1] > 1 else top
    if corrected:
        dist = np.maximum(0, -(-gap // 2) - 1)
    else:
        dist = np.maximum(0, gap - 1)
    return mode, dist.astype(np.float64)


def _oqr(mode, dist, rng, epsilon, delta, T, m):
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    out = np.full(mode.size, -2, dtype=np.int64)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i in range(mode.size):
        if c > T:
            break
        if dist[i] + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = int(mode[i])
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out


def sa_corrected(data, *, rng, epsilon, delta, T, m):
    mode, dist = _rows(data, True)
    return _oqr(mode, dist, rng, epsilon, delta, T, m)


def sa_printed(data, *, rng, epsilon, delta, T, m):
    mode, dist = _rows(data, False)
    return _oqr(mode, dist, rng, epsilon, delta, T, m)


def _oqr_batch(mode, dist, N, rng, epsilon, delta, T, m):
    """N independent runs of _oqr at once (thresholds for the 1st..(T+1)-th bottom pre-drawn)."""
    k = mode.size
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
        out[top, i] = int(mode[i])
        out[bot, i] = -1
        idx = np.nonzero(bot)[0]
        w_hat[idx] = fresh[idx, np.minimum(c[idx], T)]
        c[idx] += 1
    return out


def _b_corrected(data, N, *, rng, epsilon, delta, T, m):
    mode, dist = _rows(data, True)
    return _oqr_batch(mode, dist, N, rng, epsilon, delta, T, m)


def _b_printed(data, N, *, rng, epsilon, delta, T, m):
    mode, dist = _rows(data, False)
    return _oqr_batch(mode, dist, N, rng, epsilon, delta, T, m)


sa_corrected.batch = _b_corrected
sa_printed.batch = _b_printed
