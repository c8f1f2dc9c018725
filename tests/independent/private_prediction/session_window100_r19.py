"""PRIVACY BUG (budget that resets): budgeted_prediction_session whose ledger only remembers the charges of the
last 100 queries (a sliding window, "a budget per 100 queries" as in a rate limiter): a query is answered iff the
charges of the 99 queries before it plus epsilon stay within epsilon_total.

For q <= 100 queries the ledger never forgets, so the law is exactly the spec's (answers 1..answered, +inf after).
TRUTH: defaults epsilon_total 2, epsilon 1, gamma 1, q = 102: answers at queries 1, 2, 101 and 102 (query 1's and
then query 2's charge have left the window), refusals elsewhere. Pair D = zeros(102) ~ D' = ones(102) (every
prediction moves by gamma): four Laplace(1) answers each shifted by 1, exact loss 4 * epsilon = 4 on the corner
event {answers 1, 2, 101, 102 all >= 1} (1/16 against e^-4/16), against the claim epsilon_total = 2.
Expected at default flags: pass unless a searched input has at least 101 predictions (then claim violated).
"""
from collections import deque

import numpy as np

_WINDOW = 100


def session(data, *, rng, epsilon_total, epsilon, gamma):
    a = np.atleast_1d(np.asarray(data, dtype=float))
    q = a.size
    out = np.full(q, np.inf)
    ledger = deque(maxlen=_WINDOW - 1)
    b = gamma / epsilon
    for t in range(q):
        if sum(ledger) + epsilon <= epsilon_total + 1e-12 * max(1.0, epsilon_total):
            out[t] = a[t] + rng.laplace(0.0, b)
            ledger.append(epsilon)
        else:
            ledger.append(0.0)
    return out


def _answered_mask(q, epsilon_total, epsilon):
    ledger = deque(maxlen=_WINDOW - 1)
    mask = np.zeros(q, dtype=bool)
    for t in range(q):
        if sum(ledger) + epsilon <= epsilon_total + 1e-12 * max(1.0, epsilon_total):
            mask[t] = True
            ledger.append(epsilon)
        else:
            ledger.append(0.0)
    return mask


def session_batch(data, n, *, rng, epsilon_total, epsilon, gamma):
    a = np.atleast_1d(np.asarray(data, dtype=float))
    q = a.size
    mask = _answered_mask(q, epsilon_total, epsilon)
    out = np.full((n, q), np.inf)
    k = int(mask.sum())
    if k:
        out[:, mask] = a[mask] + rng.laplace(0.0, gamma / epsilon, size=(n, k))
    return out


session.batch = session_batch
