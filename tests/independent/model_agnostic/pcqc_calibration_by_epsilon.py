"""private_classification_queries_conference -- BUG (privacy, call-pattern dependent) (tester ta).

004 Algorithm 2 (A_binClas) exactly, except that the calibration (lam, w) is memoised in a
module-level dict keyed by epsilon only ("lam and w only change with epsilon in our sweeps").
The first call in a process computes lam = sqrt(32 T ln(2/delta))/eps and w = 2 lam ln(2m/delta)
correctly; later calls with the same epsilon but another delta, T or m reuse the stale values.

TRUTH: a fresh process at any single parameter point: the spec's law ((eps, delta)-DP).
Call pattern: one call at the defaults (eps 8, delta 1e-3, T 1, m 4), then calls at
eps 8, delta 1e-6 (T 1, m 4).  The true calibration there is lam = 2.6929, w = 85.61; the stale
one is lam = 1.9495, w = 35.04.  Pair (one vote moved per row): D = [[50, 50]] * 4 (mode 0 by
the tie rule, dist 0) vs D' = [[49, 51]] * 4 (mode 1, dist 0).  The event 'some 0 is released'
has probability 0 on D' and ~1.67e-4 on D (MC in REPORT.md; rows 1-2 each leak S(w) = 8.3e-5
before the halt), so delta(8) >= 1.6e-4 against the claimed 1e-6.
"""
import numpy as np

_CALIB = {}


def _calib(epsilon, delta, T, m):
    if epsilon not in _CALIB:                    # BUG: key ignores delta, T, m
        lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
        _CALIB[epsilon] = (lam, 2.0 * lam * np.log(2.0 * m / delta))
    return _CALIB[epsilon]


def binclas(data, *, rng, epsilon, delta, T, m, **_ignored):
    ct = np.asarray(data, dtype=np.int64).reshape(-1, 2)
    lam, w = _calib(epsilon, delta, T, m)
    w_hat = w + rng.laplace(0.0, lam)
    out = np.full(ct.shape[0], -2, dtype=np.int64)
    c = 0
    for i in range(ct.shape[0]):
        if c > T:
            break
        q = 0 if ct[i, 0] >= ct[i, 1] else 1
        dist = max(0, int(ct[i, q] - ct[i, 1 - q]) - 1)
        if dist + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = q
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out


def _batch(data, n, *, rng, epsilon, delta, T, m, **_ignored):
    from ta_vec import oqr_runs
    ct = np.asarray(data, dtype=np.int64).reshape(-1, 2)
    q = np.where(ct[:, 0] >= ct[:, 1], 0, 1)
    dist = np.maximum(0, np.abs(ct[:, 0] - ct[:, 1]) - 1)
    lam, w = _calib(epsilon, delta, T, m)            # same BUG (shared memo)
    return oqr_runs(q, dist, n, rng, lam, w, T, halt_after=T + 1)


binclas.batch = _batch
