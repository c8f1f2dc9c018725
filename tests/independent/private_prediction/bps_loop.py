"""Budgeted session written as an interactive loop with a running budget in exact fractions of eps
(counts answers, refuses when (answers + 1) * eps > eps_total (+1e-12)), no batch sampler.

VALID VARIANT: the same transcript law as the spec (answered = floor(eps_total/eps) fresh Laplace
answers); only the bookkeeping differs. A refused query's entry is +inf (the spec's refusal marker).
"""
import numpy as np


def session(data, *, rng, epsilon_total, epsilon, gamma):
    out = []
    spent = 0
    for a in np.asarray(data, dtype=np.float64).reshape(-1):
        if (spent + 1) * epsilon > epsilon_total * (1 + 1e-12):
            out.append(np.inf)                      # refused
            continue
        spent += 1
        out.append(a + rng.laplace(0.0, gamma / epsilon))
    return np.asarray(out, dtype=np.float64)
