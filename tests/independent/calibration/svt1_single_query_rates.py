"""Lyu-Su-Li Algorithm 1 with a closed form for a single query (m = 1): a top iff
nu - rho >= T - q, decided by one uniform from the survival function of a difference of two
Laplace variables. The closed form is written with the budgets eps2/(2c) and eps1 (the
Laplace RATES) where the scales 2c/eps2 and 1/eps1 belong. Longer vectors run the
sequential loop, which is exact."""
import math

import numpy as np


def _scales(epsilon, c):
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    return 2.0 * c / eps2, 1.0 / eps1


def _survival(t, a, b):
    def s(u):
        return (a * a * math.exp(-u / a) - b * b * math.exp(-u / b)) / (2.0 * (a * a - b * b))
    return s(t) if t >= 0 else 1.0 - s(-t)


def _loop(q, n, rng, epsilon, threshold, c):
    a, b = _scales(epsilon, c)
    out = np.full((n, q.size), -1, dtype=np.int8)
    rho = rng.laplace(0.0, b, size=n)
    tops = np.zeros(n, dtype=np.int64)
    for i in range(q.size):
        live = tops < c
        if not live.any():
            break
        nu = rng.laplace(0.0, a, size=n)
        top = (q[i] + nu) >= (threshold + rho)
        out[live, i] = np.where(top[live], 1, 0)
        tops += (top & live)
    return out


def _run(data, n, rng, epsilon, threshold, c):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    c = int(c)
    if q.size == 1:
        eps1 = epsilon / 2.0
        eps2 = epsilon - eps1
        p_top = _survival(float(threshold) - float(q[0]), eps2 / (2.0 * c), eps1)
        return (rng.random((n, 1)) < p_top).astype(np.int8)
    return _loop(q, n, rng, epsilon, threshold, c)


def svt(data, *, rng, epsilon, threshold, c):
    return _run(data, 1, rng, epsilon, threshold, c)[0]


def _batch(data, n, *, rng, epsilon, threshold, c):
    return _run(data, int(n), rng, epsilon, threshold, c)


svt.batch = _batch
