"""subsample_aggregate_corrected -- VALID VARIANT (tester ta).

A_subSamp (000 Alg 4 with the corrected distance dist* = max(0, ceil(gap/2) - 1)) feeding A_OQR
(000 Alg 3): lam = sqrt(32 T ln(2/delta))/eps, w = 2 lam ln(2m/delta), w_hat = w + Lap(lam),
per row: release the mode iff dist* + Lap(2 lam) > w_hat; a bottom increments c and re-draws
w_hat; the loop runs while c <= T, rows after the halt are -2.

Written differently: per-call only; rows turned into Python lists of ints; dist* computed with
integer arithmetic max(0, (gap - 1) // 2), which equals max(0, ceil(gap/2) - 1) for every integer
gap >= 0 (gap 0 -> 0, 1 -> 0, 2 -> 0, 3 -> 1, 4 -> 1, ...); the mode found by a manual scan that
keeps the first maximum (smallest label on ties, as the spec); every Laplace variable drawn as
b*(E1 - E2) with E1, E2 ~ Exp(1) (rng.standard_exponential), which is exactly Lap(b); the
comparison rearranged as (E-difference noise) - (threshold noise) > w - dist*.
TRUTH: identical law to the spec's algorithm, so (8, 1e-3)-DP at the defaults.
"""
import math

import numpy as np


def _lap(rng, b):
    e = rng.standard_exponential(2)
    return b * (float(e[0]) - float(e[1]))


def subsamp(data, *, rng, epsilon, delta, T, m, **_ignored):
    rows = [[int(v) for v in r] for r in np.asarray(data).tolist()]
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    thr_noise = _lap(rng, lam)
    out = []
    c = 0
    for r in rows:
        if c > T:
            out.append(-2)
            continue
        best, top = 0, r[0]
        for j in range(1, len(r)):
            if r[j] > top:
                best, top = j, r[j]
        second = max(r[j] for j in range(len(r)) if j != best)
        gap = top - second
        dstar = max(0, (gap - 1) // 2)
        q_noise = _lap(rng, 2.0 * lam)
        if q_noise - thr_noise > w - dstar:
            out.append(best)
        else:
            out.append(-1)
            c += 1
            thr_noise = _lap(rng, lam)
    return np.array(out, dtype=np.int64)


def _lap_vec(rng, b, n):
    e = rng.standard_exponential((2, n))
    return b * (e[0] - e[1])


def _batch(data, n, *, rng, epsilon, delta, T, m, **_ignored):
    rows = [[int(v) for v in r] for r in np.asarray(data).tolist()]
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    thr_noise = _lap_vec(rng, lam, n)
    out = np.full((n, len(rows)), -2, dtype=np.int64)
    c = np.zeros(n, dtype=np.int64)
    for i, r in enumerate(rows):
        best, top = 0, r[0]
        for j in range(1, len(r)):
            if r[j] > top:
                best, top = j, r[j]
        second = max(r[j] for j in range(len(r)) if j != best)
        dstar = max(0, (top - second - 1) // 2)
        active = c <= T
        rel = active & (_lap_vec(rng, 2.0 * lam, n) - thr_noise > w - dstar)
        bot = active & ~rel
        out[rel, i] = best
        out[bot, i] = -1
        c += bot
        thr_noise = np.where(bot, _lap_vec(rng, lam, n), thr_noise)
    return out


subsamp.batch = _batch
