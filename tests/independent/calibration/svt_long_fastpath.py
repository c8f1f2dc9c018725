"""Lyu-Su-Li Algorithm 1 (SVT): a plain loop for short query lists, a vectorised path for
long ones (m > 64)."""
import numpy as np


def _loop(q, rng, threshold, c, rho_scale, nu_scale):
    rho = rng.laplace(0.0, rho_scale)
    out = np.full(q.shape[0], -1, dtype=np.int8)
    count = 0
    for i in range(q.shape[0]):
        if q[i] + rng.laplace(0.0, nu_scale) >= threshold + rho:
            out[i] = 1
            count += 1
            if count >= c:
                break
        else:
            out[i] = 0
    return out


def _vectorised(q, rng, threshold, c, rho_scale, nu_scale):
    rho = rng.laplace(0.0, rho_scale)
    nu = rng.laplace(0.0, nu_scale, size=q.shape)
    out = ((q + nu) >= (threshold + rho)).astype(np.int8)
    hits = np.cumsum(q >= threshold + rho)          # position of the c-th top
    if hits[-1] >= c:
        out[int(np.argmax(hits >= c)) + 1:] = -1
    return out


def svt(data, *, rng, epsilon, threshold, c):
    q = np.asarray(data, dtype=float).reshape(-1)
    c = int(c)
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    run = _vectorised if q.shape[0] > 64 else _loop
    return run(q, rng, threshold, c, 1.0 / eps1, 2.0 * c / eps2)
