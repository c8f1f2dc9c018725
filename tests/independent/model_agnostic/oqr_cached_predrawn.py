"""Online query release A_OQR (seed 000 Algorithm 3): lam = sqrt(32 T ln(2/delta))/epsilon,
w = 2 lam ln(2m/delta), w_hat = w + Lap(lam) re-drawn after every bottom; for each row [f_i, dist_i] while
c <= T: release f_i if dist_i + Lap(2 lam) > w_hat else bottom (-1), c += 1; -2 after the halt.
Written differently: the constants (lam, w) are cached across calls (functools.lru_cache on the public
parameters); every call pre-draws T + 1 thresholds and one query noise per row up front (noises of
unanswered rows are drawn and unused), Laplace as sign * rng.standard_exponential (sign from
rng.integers(0, 2)). Batch: same pre-drawn scheme on (N, .) blocks. Unused keyword beta via **_.
Law: the spec's (all noises i.i.d., each used at most once)."""
import functools
import math

import numpy as np


@functools.lru_cache(maxsize=64)
def _consts(epsilon, delta, T, m):
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    return lam, 2.0 * lam * math.log(2.0 * m / delta)


def _lap(rng, b, size):
    s = 2.0 * rng.integers(0, 2, size=size) - 1.0
    return s * b * rng.standard_exponential(size=size)


def oqr(data, *, rng, epsilon, delta, T, m, **_):
    rows = np.asarray(data, dtype=np.float64).reshape(-1, 2)
    lam, w = _consts(float(epsilon), float(delta), int(T), int(m))
    k = rows.shape[0]
    thr = w + _lap(rng, lam, T + 1)
    nz = _lap(rng, 2.0 * lam, k)
    out = np.full(k, -2, dtype=np.int64)
    c = 0
    for i in range(k):
        if c > T:
            break
        if rows[i, 1] + nz[i] > thr[c]:
            out[i] = int(rows[i, 0])
        else:
            out[i] = -1
            c += 1
    return out


def _batch(data, N, *, rng, epsilon, delta, T, m, **_):
    rows = np.asarray(data, dtype=np.float64).reshape(-1, 2)
    lam, w = _consts(float(epsilon), float(delta), int(T), int(m))
    k = rows.shape[0]
    thr = w + _lap(rng, lam, (N, T + 1))
    nz = _lap(rng, 2.0 * lam, (N, k))
    out = np.full((N, k), -2, dtype=np.int64)
    c = np.zeros(N, dtype=np.int64)
    r = np.arange(N)
    for i in range(k):
        live = c <= T
        cur = thr[r, np.minimum(c, T)]
        top = live & (rows[i, 1] + nz[:, i] > cur)
        bot = live & ~top
        out[top, i] = int(rows[i, 0])
        out[bot, i] = -1
        c[bot] += 1
    return out


oqr.batch = _batch
