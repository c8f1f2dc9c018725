"""Subsample-and-aggregate private prediction with the soft majority (seed 002 Theorem 1), the records left
over by n // r given to the last teacher.

Votes form data = [c_0, c_1]: label 1 with probability logistic(epsilon nu/2), nu = c_1 - c_0 (the spec's
mechanism). Dataset form data = {X, y, x}: r = ceil(6 ln(4/alpha)/epsilon) teachers; block j = records
j*m .. (j+1)*m - 1 with m = n // r, except that the last block runs to the end of the data (records
r*m .. n-1, which the spec leaves unused, are appended to teacher r "so that no data are wasted"); each
teacher the threshold learner t_j = min{X_i : y_i = 1} of its block (+inf if none), voting 1 iff
x >= t_j; one coin per query. Per call only.

TRUTH (differs; privacy holds): the blocks are still disjoint and fixed by position (data-independent),
so one replaced record changes at most one teacher, |nu - nu'| <= 2 and every query is epsilon-DP
exactly as the spec's (worst loss L_star = 0.99998 at the defaults). The law differs from the spec's
only when r does not divide n and a left-over record lowers the last teacher's threshold: at the
defaults (r = 23) n = 24, X = (0.9, ..., 0.9, 0.2), y = (0, ..., 0, 1), x = 0.5: the spec's teachers
(m = 1, records 0..22) all say 0, nu = -23, P[1] = 1.0e-5; here the last teacher sees record 23 and
says 1, nu = -21, P[1] = 2.75e-5 (closed form). At n divisible by r (Theorem 1's n = 5589 = 23 x 243)
it is the spec's law exactly.
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
    t = np.full(r, np.inf)
    for j in range(r):
        hi = (j + 1) * mb if j < r - 1 else X.size
        xb, yb = X[j * mb:hi], y[j * mb:hi]
        pos = xb[yb == 1]
        if pos.size:
            t[j] = pos.min()
    q = np.asarray(data["x"], dtype=np.float64)
    c1 = (q.reshape(-1)[:, None] >= t[None, :]).sum(axis=1)
    return 2 * c1 - r, q.ndim == 0


def predict(data, *, rng, epsilon, alpha):
    nu, scalar = _nu(data, epsilon, alpha)
    z = 0.5 * epsilon * nu.astype(np.float64)
    p1 = 0.5 * (1.0 + np.tanh(0.5 * z))
    out = (rng.random(nu.size) < p1).astype(np.int8)
    return int(out[0]) if scalar else out
