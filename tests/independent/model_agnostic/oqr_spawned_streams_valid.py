"""online_query_release -- VALID VARIANT (per-call only; spawned generators, Laplace as a
difference of exponentials).

What it is: A_OQR (000 Algorithm 3) written with two independent child generators spawned from
the caller's rng on every call (rng.spawn(2)): one stream for the thresholds w_hat = w + Lap(lam)
(drawn at the start and re-drawn after every bottom), one for the per-query noise Lap(2 lam).
Each Laplace is drawn as b*(E1 - E2) with E1, E2 standard exponentials (an exact Laplace
sampler different from numpy's inverse CDF).  lam = sqrt(32 T log(2/delta))/epsilon,
w = 2 lam log(2m/delta); release the exact label iff dist + Lap(2 lam) > w_hat, else bottom
(-1) and c += 1; after the (T+1)-th bottom every later row is -2.  Rows are processed in order.
TRUTH: every draw is an independent Laplace of the spec's scale (the two spawned streams are
independent and the draws are used in the spec's order), so the output law is exactly the
spec's and Theorem 3.6's claim (epsilon 8, delta 1e-3 at the defaults) holds.  No .batch.
"""
import math

import numpy as np


def oqr(data, *, rng, epsilon=8.0, delta=1e-3, T=1, m=4, **_):
    rows = np.asarray(data, dtype=np.float64).reshape(-1, 2)
    thr_rng, q_rng = rng.spawn(2)
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)

    def lap(g, b):
        return b * (g.standard_exponential() - g.standard_exponential())

    out = [-2] * rows.shape[0]
    c = 0
    w_hat = w + lap(thr_rng, lam)
    for i in range(rows.shape[0]):
        if c > T:
            break
        label, dist = rows[i]
        if dist + lap(q_rng, 2.0 * lam) > w_hat:
            out[i] = int(round(label))
        else:
            out[i] = -1
            c += 1
            if c <= T:
                w_hat = w + lap(thr_rng, lam)
    return np.array(out, dtype=np.int64)
