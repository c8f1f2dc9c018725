"""online_query_release -- BUG (utility: wrong released label) (tester ta).

A_OQR (000 Alg 3) exactly, except that the labels column is cast to the compact int8 dtype of
the transcript before the loop (labels = data[:, 0].astype(np.int64).astype(np.int8), "labels and
the codes -1/-2 fit in a byte") and the int8 transcript is widened to int64 only at the end.
Labels >= 128 wrap modulo 256: 200 -> -56, 255 -> -1 (looks like bottom), 254 -> -2 (looks like
'not answered'), 256 -> 0, 300 -> 44.

TRUTH: privacy holds exactly ((8, 1e-3)-DP at the defaults): the output is g(correct output)
for the fixed map g(l) = wrap8(l) on labels, g(-1) = -1, g(-2) = -2 (post-processing).
Corollary 3.9 fails whenever a stable query has a label >= 128: rows [[300, 1000]] * 4
(dist 1000 >= alpha = 151, L(alpha) empty): the spec's algorithm outputs [300]*4 with
probability >= 1 - 1e-12; this one outputs [44]*4 with the same probability, so 'outputs
f_i(D) for every i not in L(alpha)' fails with probability ~1 > beta = 0.1.  Labels < 128:
the spec's law.
"""
import numpy as np


def oqr(data, *, rng, epsilon, delta, T, m, **_ignored):
    rows = np.asarray(data, dtype=np.float64).reshape(-1, 2)
    labels = rows[:, 0].astype(np.int64).astype(np.int8)   # BUG: wraps labels >= 128
    dist = rows[:, 1]
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * np.log(2.0 * m / delta)
    w_hat = w + rng.laplace(0.0, lam)
    out = np.full(rows.shape[0], -2, dtype=np.int8)
    c = 0
    for i in range(rows.shape[0]):
        if c > T:
            break
        if dist[i] + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = labels[i]
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out.astype(np.int64)


def _batch(data, n, *, rng, epsilon, delta, T, m, **_ignored):
    from ta_vec import oqr_runs
    rows = np.asarray(data, dtype=np.float64).reshape(-1, 2)
    labels = rows[:, 0].astype(np.int64).astype(np.int8)   # same BUG
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * np.log(2.0 * m / delta)
    return oqr_runs(labels, rows[:, 1], n, rng, lam, w, T, halt_after=T + 1, out_dtype=np.int8).astype(np.int64)


oqr.batch = _batch
