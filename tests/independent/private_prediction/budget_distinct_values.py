"""Budgeted multi-query prediction session (Lemma 4).

Each answer is A(S, x_t) + Lap(gamma/epsilon) with fresh noise. Bookkeeping: a prediction value
already seen in this session is a repeated question, so it is answered (fresh noise) without
charging the budget again; new values are charged epsilon each and refused (+inf) once
floor(epsilon_total/epsilon) charges have been made.
"""
import numpy as np


def _answered(a, epsilon_total, epsilon):
    cap = int(np.floor(epsilon_total / epsilon + 1e-12))
    seen = set()
    spent = 0
    mask = np.zeros(a.size, dtype=bool)
    for t, v in enumerate(a.tolist()):
        if v in seen:
            mask[t] = True
        elif spent < cap:
            spent += 1
            seen.add(v)
            mask[t] = True
    return mask


def session(data, *, rng, epsilon_total, epsilon, gamma):
    a = np.asarray(data, dtype=np.float64).reshape(-1)
    mask = _answered(a, epsilon_total, epsilon)
    noise = rng.laplace(0.0, gamma / epsilon, size=a.size)
    return np.where(mask, a + noise, np.inf)


def session_batch(data, N, *, rng, epsilon_total, epsilon, gamma):
    a = np.asarray(data, dtype=np.float64).reshape(-1)
    mask = _answered(a, epsilon_total, epsilon)
    noise = rng.laplace(0.0, gamma / epsilon, size=(N, a.size))
    return np.where(mask[None, :], a[None, :] + noise, np.inf)


session.batch = session_batch
