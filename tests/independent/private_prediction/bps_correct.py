"""Budgeted prediction session: answer queries in order with A(S, x_t) + Lap(gamma/eps), fresh noise
each, while the spent budget plus eps stays within eps_total (with a 1e-12 slack); refuse the rest (+inf, the
spec's refusal marker, so the transcript has one entry per query)."""
import numpy as np


def _answered(q, epsilon_total, epsilon):
    k = int(np.floor(epsilon_total / epsilon + 1e-12))
    return min(q, k)


def session(data, *, rng, epsilon_total, epsilon, gamma):
    a = np.asarray(data, dtype=np.float64).reshape(-1)
    k = _answered(a.size, epsilon_total, epsilon)
    out = np.full(a.size, np.inf)
    out[:k] = a[:k] + rng.laplace(0.0, gamma / epsilon, size=k)
    return out


def _batch(data, N, *, rng, epsilon_total, epsilon, gamma):
    a = np.asarray(data, dtype=np.float64).reshape(-1)
    k = _answered(a.size, epsilon_total, epsilon)
    out = np.full((N, a.size), np.inf)
    out[:, :k] = a[None, :k] + rng.laplace(0.0, gamma / epsilon, size=(N, k))
    return out


session.batch = _batch
