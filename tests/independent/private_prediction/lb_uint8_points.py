"""private_prediction_lower_bound_corrected -- BUG (dtype: uint8 storage of the points).

What it is: the hard instance of Theorem 2 (paper 002): X = [d], b uniform in
{0,1}^d, S = n points i.i.d. uniform on [d]; output (X_1..X_n, b_1..b_d) as int64.
The programmer stores the sample points compactly in a uint8 buffer
(X = np.empty(n, np.uint8); X[:] = rng.integers(0, d, n)), then widens to int64
for the output. Exact for d <= 256.

BUG: for d > 256 the assignment wraps modulo 256: points 256..d-1 become
0..d-257. At the default d = 400: points 0..143 have probability 2/400, points
144..255 have 1/400, points 256..399 never occur (probability 0).

TRUTH (d = 400, n = 500, eps = 0.1, s = 2): the law of S differs from the spec
(D is not uniform on [d]); for a doubled point t_i ~ Bin(500, 1/200), Pr[t_i > 2] =
0.4564 (vs 0.1313 for the spec), so the proof's per-instance bound for those
points becomes (1 - 2e^0.1(0.1/3) - 0.4565)/(1 + e^0.2) = 0.2115 instead of 0.3579, and
points 256..399 are never seen. Own Monte Carlo: see REPORT.md.
"""
import numpy as np


def instance(data, *, rng, d, n, **params):
    d = int(d); n = int(n)
    X = np.empty(n, dtype=np.uint8)
    X[:] = rng.integers(0, d, size=n)          # BUG: wraps modulo 256 for d > 256
    b = rng.integers(0, 2, size=d)
    return np.concatenate([X.astype(np.int64), b.astype(np.int64)])


def _batch(data, N, *, rng, d, n, **params):
    d = int(d); n = int(n)
    X = np.empty((N, n), dtype=np.uint8)
    X[:] = rng.integers(0, d, size=(N, n))     # BUG: wraps modulo 256 for d > 256
    b = rng.integers(0, 2, size=(N, d))
    return np.concatenate([X.astype(np.int64), b.astype(np.int64)], axis=1)


instance.batch = _batch
