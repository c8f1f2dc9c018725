"""Subsample-and-aggregate private prediction with the soft majority (seed 002 Theorem 1), whose teachers
borrow the pooled threshold when their block has no positive example.

Votes form data = [c_0, c_1]: label 1 with probability logistic(epsilon nu/2), nu = c_1 - c_0 (exactly the
spec's mechanism). Dataset form data = {X, y, x}: r = ceil(6 ln(4/alpha)/epsilon) teachers on positional
blocks of m = n // r records (the first r*m records), each the threshold learner t_j = min{X_i : y_i = 1}
of its block, voting 1 iff x >= t_j; every query gets its own coin. The bug: a block without a positive
example would give t_j = +inf (a teacher that always says 0), and the author "repairs" it with the
smallest positive X among the first r*m records (the pooled threshold), so an empty teacher agrees with
the data. Per call only.

TRUTH (privacy-bug, default point epsilon = 1, alpha = 0.1: r = 23): D = {X = (i + 0.5)/n for i < n,
n = 230, y = all 0, x = 0.5} vs D' = D with record 0 replaced by (X, y) = (0.1, 1). On D every teacher
is +inf: nu = -23, P[1] = logistic(-11.5) = 1.01e-5. On D' teacher 1 has t = 0.1 and the 22 empty
teachers borrow t = 0.1: nu = +23, P[1] = 1 - 1.01e-5. Loss ln(P'[1]/P[1]) = 11.5 against claim 1
(the spec's mechanism on this pair: nu -23 -> -21, loss 0.99998). Exact (closed form). The votes form
cannot show it.
"""
import math

import numpy as np


def _nu(data, epsilon, alpha):
    if not isinstance(data, dict):
        cnt = np.asarray(data).reshape(-1)
        return np.array([int(cnt[1]) - int(cnt[0])]), True
    X = np.asarray(data["X"], dtype=np.float64).reshape(-1)
    y = np.asarray(data["y"]).reshape(-1).astype(np.int64)
    r = math.ceil(6.0 * math.log(4.0 / alpha) / epsilon)
    mb = X.size // r
    used_X, used_y = X[:r * mb], y[:r * mb]
    pooled = used_X[used_y == 1]
    fallback = pooled.min() if pooled.size else np.inf
    t = np.empty(r)
    for j in range(r):
        xb, yb = X[j * mb:(j + 1) * mb], y[j * mb:(j + 1) * mb]
        pos = xb[yb == 1]
        t[j] = pos.min() if pos.size else fallback
    q = np.asarray(data["x"], dtype=np.float64)
    c1 = (q.reshape(-1)[:, None] >= t[None, :]).sum(axis=1)
    return 2 * c1 - r, q.ndim == 0


def predict(data, *, rng, epsilon, alpha):
    nu, scalar = _nu(data, epsilon, alpha)
    z = 0.5 * epsilon * nu.astype(np.float64)
    p1 = 0.5 * (1.0 + np.tanh(0.5 * z))
    out = (rng.random(nu.size) < p1).astype(np.int8)
    return int(out[0]) if scalar else out
