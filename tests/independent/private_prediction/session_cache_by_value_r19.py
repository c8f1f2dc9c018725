"""PRIVACY BUG (cache keyed by the data): budgeted_prediction_session that answers a "repeated query" from its
cache at no cost (as the spec allows for a repeated query x), but keys the cache by the prediction value
A(S, x_t), the only thing it sees: two distinct queries with equal predictions get the same noisy answer and the
second costs nothing.

TRUTH: defaults (epsilon_total 2, epsilon 1, gamma 1). Pair D = [0, 0, 0] ~ D' = [1, 0, 0] (prediction 1 moves by
gamma, allowed by query_answers). D: [z1, z1, z1] (one answer, two cache hits). D': [1 + z1, z2, z2]. The event
{out_1 = out_2} has probability 1 on D and 0 on D': infinite loss against the claim epsilon_total = 2.
(On the spec's stress pair [0,0,0] ~ [1,1,1] both sides are cached alike: loss epsilon = 1 only.)
Expected: claim violated if the audit's events see equal coordinates; otherwise pass (a miss).
"""
import numpy as np


def session(data, *, rng, epsilon_total, epsilon, gamma):
    a = np.atleast_1d(np.asarray(data, dtype=float))
    q = a.size
    out = np.full(q, np.inf)
    cache = {}
    spent = 0.0
    b = gamma / epsilon
    for t in range(q):
        key = float(a[t])
        if key in cache:
            out[t] = cache[key]
        elif spent + epsilon <= epsilon_total + 1e-12 * max(1.0, epsilon_total):
            out[t] = a[t] + rng.laplace(0.0, b)
            cache[key] = out[t]
            spent += epsilon
    return out


def session_batch(data, n, *, rng, epsilon_total, epsilon, gamma):
    a = np.atleast_1d(np.asarray(data, dtype=float))
    q = a.size
    out = np.full((n, q), np.inf)
    cache = {}
    spent = 0.0
    b = gamma / epsilon
    for t in range(q):
        key = float(a[t])
        if key in cache:
            out[:, t] = out[:, cache[key]]
        elif spent + epsilon <= epsilon_total + 1e-12 * max(1.0, epsilon_total):
            out[:, t] = a[t] + rng.laplace(0.0, b, size=n)
            cache[key] = t
            spent += epsilon
    return out


session.batch = session_batch
