"""Budgeted prediction session (Lemma 4) with 'graceful degradation'.

The first floor(epsilon_total/epsilon) queries get A(S,x) + Lap(gamma/epsilon). Instead of a hard
refusal afterwards, the session keeps answering with ever more noise: the j-th query past the
budget is answered at privacy cost epsilon/2^j ("a geometric tail that sums to a negligible extra").
BUG: the tail still costs up to epsilon in total: the transcript is (epsilon_total + epsilon)-DP
in the limit, not epsilon_total-DP.
"""
import math

import numpy as np


def _scales(q, epsilon_total, epsilon, gamma):
    answered = math.floor(epsilon_total / epsilon + 1e-12)
    eps_t = [epsilon if t < answered else epsilon / 2.0 ** (t - answered + 1) for t in range(q)]
    return np.array([gamma / e for e in eps_t])


def session(data, *, rng, epsilon_total, epsilon, gamma, **_):
    f = np.atleast_1d(np.asarray(data, dtype=float))
    return f + rng.laplace(0.0, 1.0, size=f.shape) * _scales(f.size, epsilon_total, epsilon, gamma)


def _batch(data, N, *, rng, epsilon_total, epsilon, gamma, **_):
    f = np.atleast_1d(np.asarray(data, dtype=float))
    return f + rng.laplace(0.0, 1.0, size=(N, f.size)) * _scales(f.size, epsilon_total, epsilon, gamma)


session.batch = _batch
