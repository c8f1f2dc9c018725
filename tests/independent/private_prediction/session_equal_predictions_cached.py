"""BUG: budgeted prediction session that memoises its noisy answer per prediction VALUE: a query whose
exact prediction equals an earlier one's in the same session gets the same noisy answer (same noise) and is
not charged again ("the same question gets the same answer").
Why it breaks privacy: whether two answers coincide reveals whether two predictions were equal. With
gamma = 1, eps = 1, eps_total = 2: D = [0, 0] (answers identical with probability 1) vs D' = [1, 0]
(a neighbour: each prediction moves by <= gamma): answers identical with probability 0 -> infinite loss.
It also answers more than floor(eps_total/eps) distinct transcripts entries for free, e.g. [0,0,0,5]:
the 4th gets a fresh answer (3 answers with distinct values would be needed to see it).
Expected class: claim violated.
"""
import math

import numpy as np


def _answered(epsilon_total, epsilon):
    return int(math.floor(epsilon_total / epsilon + 1e-12))


def _run(f, noise_row_fn, k):
    # returns index map: for each query, the column of noise it uses, or -1 for refusal
    cols = []
    seen = {}
    used = 0
    for v in f:
        key = float(v)
        if key in seen:
            cols.append(seen[key])
        elif used < k:
            seen[key] = used
            cols.append(used)
            used += 1
        else:
            cols.append(-1)
    return cols, used


def session(data, *, rng, epsilon_total, epsilon, gamma):
    f = np.atleast_1d(np.asarray(data, dtype=float))
    k = _answered(epsilon_total, epsilon)
    cols, used = _run(f, None, k)
    noise = rng.laplace(0.0, gamma / epsilon, size=used)
    out = np.full(f.shape, np.inf)
    for i, c in enumerate(cols):
        if c >= 0:
            out[i] = f[i] + noise[c]
    return out


def session_batch(data, n, *, rng, epsilon_total, epsilon, gamma):
    f = np.atleast_1d(np.asarray(data, dtype=float))
    k = _answered(epsilon_total, epsilon)
    cols, used = _run(f, None, k)
    noise = rng.laplace(0.0, gamma / epsilon, size=(n, used))
    out = np.full((n, f.size), np.inf)
    for i, c in enumerate(cols):
        if c >= 0:
            out[:, i] = f[i] + noise[:, c]
    return out


session.batch = session_batch
