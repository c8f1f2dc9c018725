"""VALID: budgeted_prediction_session, a per-call function without .batch, another Laplace sampler.

Each answer is A(S, x_t) + s * E * gamma/epsilon with E ~ Exp(1) and s a fair random sign (= Lap(gamma/epsilon)),
fresh per answer; the session answers while the spent budget plus epsilon stays within epsilon_total (integer
count of answers: floor(epsilon_total/epsilon + 1e-12), as the spec) and returns +inf for every later query.
TRUTH: identical law to the spec's session; epsilon_total-DP (basic composition). Expected: pass (exit 0).
"""
import math

import numpy as np


def session(data, *, rng, epsilon_total, epsilon, gamma):
    a = np.atleast_1d(np.asarray(data, dtype=float))
    q = a.size
    k = int(math.floor(epsilon_total / epsilon + 1e-12))
    out = np.full(q, np.inf)
    b = gamma / epsilon
    for t in range(min(k, q)):
        e = rng.exponential(1.0)
        s = 1.0 if rng.random() < 0.5 else -1.0
        out[t] = a[t] + s * e * b
    return out
