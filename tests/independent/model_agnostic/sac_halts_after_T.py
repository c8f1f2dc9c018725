"""subsample_aggregate_corrected -- BUG (utility / cutoff off-by-one) (tester ta).

The corrected A_subSamp / A_OQR loop, but the guard is `c < T` instead of `c <= T`: the run halts
after the T-th bottom instead of the (T+1)-th.  Privacy is untouched (the output is the correct
transcript truncated after its T-th bottom: a deterministic function of the correct output, so
post-processing; (8, 1e-3)-DP still holds), but the cutoff that Theorem 3.11 relies on is wrong.

TRUTH (defaults eps 8, delta 1e-3, T 1, m 4, K = 914 chunks): rows
[[457, 457], [914, 0], [914, 0], [914, 0]] (query 1 unstable, the three others unanimous, so
|L_bar| = 3 = m - T): the spec's algorithm outputs [-1, 0, 0, 0] with probability
>= 1 - 8.3e-5 - 3*(tiny); this one outputs [-1, -2, -2, -2] with the same probability, so
Theorem 3.11 ('outputs x_f for every f in L_bar', failure <= beta = 0.1) fails with probability
~0.9999.  With all queries stable (no bottom) it is the spec's law.
"""
import numpy as np


def subsamp(data, *, rng, epsilon, delta, T, m, **_ignored):
    ct = np.asarray(data, dtype=np.int64)
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * np.log(2.0 * m / delta)
    w_hat = w + rng.laplace(0.0, lam)
    out = np.full(ct.shape[0], -2, dtype=np.int64)
    c = 0
    for i in range(ct.shape[0]):
        if not c < T:                       # BUG: should be c <= T
            break
        row = ct[i]
        mode = int(np.argmax(row))
        runner = int(np.max(np.delete(row, mode)))
        gap = int(row[mode]) - runner
        dist = max(0, int(np.ceil(gap / 2.0)) - 1)
        if dist + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = mode
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out


def _batch(data, n, *, rng, epsilon, delta, T, m, **_ignored):
    from ta_vec import oqr_runs
    ct = np.asarray(data, dtype=np.int64)
    modes = np.argmax(ct, axis=1)
    rest = ct.copy()
    rest[np.arange(ct.shape[0]), modes] = -1
    gap = ct[np.arange(ct.shape[0]), modes] - rest.max(axis=1)
    dist = np.maximum(0, np.ceil(gap / 2.0).astype(np.int64) - 1)
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * np.log(2.0 * m / delta)
    return oqr_runs(modes, dist, n, rng, lam, w, T, halt_after=T)   # same BUG: halts after T bottoms


subsamp.batch = _batch
