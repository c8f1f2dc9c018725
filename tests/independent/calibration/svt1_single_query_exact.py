"""PROBE (privacy bug): a single query (m = 1) is answered WITHOUT noise (top iff q >= T); otherwise as in svt1_single_query_closed_form. Original doc: A single query is answered in closed form: it is a top iff
nu - rho >= T - q with nu ~ Lap(a), a = 2c/eps2, and rho ~ Lap(b), b = 1/eps1; the
difference of independent Laplace variables with a != b has survival function
S(t) = (a^2 e^{-t/a} - b^2 e^{-t/b}) / (2 (a^2 - b^2)) for t >= 0 and 1 - S(-t) for t < 0,
so one uniform decides it. Longer query vectors run the sequential loop (vectorised across
runs). a = 4c/epsilon >= 2b always, so a != b."""
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
        a, b = _scales(epsilon, c)
        p_top = 1.0 if q[0] >= threshold else 0.0   # PROBE: single query answered exactly
        return (rng.random((n, 1)) < p_top).astype(np.int8)
    return _loop(q, n, rng, epsilon, threshold, c)


def svt(data, *, rng, epsilon, threshold, c):
    return _run(data, 1, rng, epsilon, threshold, c)[0]


def _batch(data, n, *, rng, epsilon, threshold, c):
    return _run(data, int(n), rng, epsilon, threshold, c)


svt.batch = _batch
