"""Lyu-Su-Li Algorithm 1 (SVT), per call and batched, noise from a spawned child generator,
Laplace variates as log(U1/U2), one progress line on stdout per call.

rho = Lap(2/epsilon) once, nu_i = Lap(4c/epsilon) fresh per query, top iff
q_i + nu_i >= T + rho, abort after the c-th top (remaining answers -1)."""
import math

import numpy as np


def _lap(g, scale):
    u1, u2 = g.random(2)
    while u1 == 0.0 or u2 == 0.0:
        u1, u2 = g.random(2)
    return scale * math.log(u1 / u2)


def svt(data, *, rng, epsilon, threshold, c):
    (g,) = rng.spawn(1)
    q = [float(v) for v in np.asarray(data, dtype=float).ravel()]
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    rho = _lap(g, 1.0 / eps1)
    out = [-1] * len(q)
    tops = 0
    for i, qi in enumerate(q):
        nu = _lap(g, 2.0 * c / eps2)
        if (qi - threshold) + nu - rho >= 0.0:
            out[i] = 1
            tops += 1
            if tops >= c:
                break
        else:
            out[i] = 0
    print("svt:", "".join({1: "T", 0: "_", -1: "."}[o] for o in out))
    return np.array(out, dtype=np.int8)


def _svt_batch(data, n, *, rng, epsilon, threshold, c):
    (g,) = rng.spawn(1)
    q = np.asarray(data, dtype=float).ravel()
    m = q.size
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    u = g.random((2, n, m + 1))
    while np.any(u == 0.0):
        u = np.where(u == 0.0, g.random(u.shape), u)
    lap = np.log(u[0] / u[1])
    rho = lap[:, :1] / eps1
    nu = lap[:, 1:] * (2.0 * c / eps2)
    top = ((q - threshold) + nu - rho >= 0.0)
    before = np.cumsum(top, axis=1) - top  # tops strictly before query i
    out = np.where(before < c, top.astype(np.int8), np.int8(-1)).astype(np.int8)
    print(f"svt batch: {n} runs of {m} queries")
    return out


svt.batch = _svt_batch
