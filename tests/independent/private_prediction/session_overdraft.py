import numpy as np


def _answered(epsilon_total, epsilon):
    # spend while any budget remains (strictly positive), as a running odometer
    remaining, k = float(epsilon_total), 0
    while remaining > 1e-12:
        remaining -= epsilon
        k += 1
    return k

def session(data, *, rng, epsilon_total, epsilon, gamma):
    f = np.asarray(data, dtype=float).reshape(-1)
    k = _answered(epsilon_total, epsilon)
    out = np.full(f.shape, np.inf)
    a = min(k, f.size)
    out[:a] = f[:a] + rng.laplace(0.0, gamma / epsilon, size=a)
    return out

def _batch(data, n, *, rng, epsilon_total, epsilon, gamma):
    f = np.asarray(data, dtype=float).reshape(-1)
    k = _answered(epsilon_total, epsilon)
    out = np.full((n, f.size), np.inf)
    a = min(k, f.size)
    out[:, :a] = f[:a] + rng.laplace(0.0, gamma / epsilon, size=(n, a))
    return out

session.batch = _batch
