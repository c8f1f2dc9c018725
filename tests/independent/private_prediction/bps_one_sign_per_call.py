"""budgeted_prediction_session: Laplace noise written as sign * Exponential,
with the sign drawn once per session (hoisted out of the loop by mistake).
Each answer alone is exactly Lap(gamma/epsilon); jointly all noises share a sign."""
import numpy as np


def _answered(epsilon_total, epsilon):
    return int(np.floor(epsilon_total / epsilon + 1e-12))


def session(data, *, rng, epsilon_total, epsilon, gamma):
    f = np.atleast_1d(np.asarray(data, dtype=float))
    q = f.size
    k = min(q, _answered(epsilon_total, epsilon))
    out = np.full(q, np.inf)
    sign = 1.0 if rng.random() < 0.5 else -1.0
    for t in range(k):
        out[t] = f[t] + sign * rng.exponential(gamma / epsilon)
    return out


def _batch(data, n, *, rng, epsilon_total, epsilon, gamma):
    f = np.atleast_1d(np.asarray(data, dtype=float))
    q = f.size
    k = min(q, _answered(epsilon_total, epsilon))
    out = np.full((n, q), np.inf)
    sign = np.where(rng.random((n, 1)) < 0.5, 1.0, -1.0)
    out[:, :k] = f[:k] + sign * rng.exponential(gamma / epsilon, size=(n, k))
    return out


session.batch = _batch
