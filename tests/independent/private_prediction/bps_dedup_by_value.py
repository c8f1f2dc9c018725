"""budgeted_prediction_session (seed 002, DP prediction interface + Lemma 4): each answered query gets
A(S, x_t) + Lap(gamma/epsilon) with fresh noise and costs epsilon; once the next answer would exceed
epsilon_total the session refuses (+inf); a repeated query is answered from a cache at no cost.

PRIVACY BUG (group privacy-bug): the session only sees the exact predictions A(S, x_t), not the queries,
so "repeated query" is detected by an equal PREDICTION: a prediction equal to one already answered is
served the cached noisy answer and not charged. The cache key is private: whether two predictions are
equal depends on S, so the pattern of repeated answers (and the budget spent) leaks it.
Per-call only, no batch sampler.

TRUTH (exact, the author's script, not kept), defaults epsilon_total = 2, epsilon = 1, gamma = 1 (answered = 2):
  D  = (0, 0, 0)        -> one paid answer z, served three times: output (z, z, z), out[1] == out[2] surely.
  D' = (0, 0, gamma)    -> (neighbours: every prediction moves by <= gamma)
                           output (z1, z1, z3) with z3 = 1 + fresh Laplace: out[1] != out[2] surely.
  The event {out[1] == out[2]} has probability 1 on D and 0 on D': infinite privacy loss
  (claim epsilon_total = 2, delta = 0).
  On the spec's own stress pair (0,0,0) vs (g,g,g) both sides are all-equal, so the law is one Laplace
  shifted by gamma: loss epsilon = 1 < 2 (the bug is invisible there).
"""
import math

import numpy as np


def session(data, *, rng, epsilon_total, epsilon, gamma):
    a = np.atleast_1d(np.asarray(data, dtype=float))
    answered = math.floor(epsilon_total / epsilon + 1e-12)
    out = np.full(a.shape, np.inf)
    cache = {}
    paid = 0
    for t, v in enumerate(a.tolist()):
        if v in cache:                      # "same query again": post-processing, free
            out[t] = cache[v]
            continue
        if paid >= answered:                # budget exhausted: refuse
            continue
        paid += 1
        z = v + rng.laplace(0.0, gamma / epsilon)
        cache[v] = z
        out[t] = z
    return out
