"""Sparse vector technique, Lyu-Su-Li Algorithm 1 (rho = Lap(1/eps1), nu_i = Lap(2c/eps2), abort
after c tops), vectorised over blocks of 16 queries: each block is answered by one vectorised
pass (noise for the whole block at once, cumulative top count within the block)."""
import numpy as np

BLOCK = 16


def _block(q, rng_rho, rng_nu, epsilon, threshold, c):
    # q: (N, L) answers; returns (N, L) int8
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    N, L = q.shape
    rho = rng_rho(N)[:, None] / eps1
    nu = rng_nu((N, L)) * (2.0 * c / eps2)
    top = (q + nu >= threshold + rho)
    cum = np.cumsum(top, axis=1)
    out = top.astype(np.int8)
    # answered: before the c-th top, or the c-th top itself
    answered = (cum - top) < c
    out[~answered] = -1
    return out


def _run(q, N, rng, epsilon, threshold, c):
    m = q.size
    outs = []
    for s in range(0, m, BLOCK):
        qb = np.broadcast_to(q[s:s + BLOCK], (N, min(BLOCK, m - s)))
        outs.append(_block(qb, lambda n: rng.laplace(0.0, 1.0, size=n),
                           lambda sh: rng.laplace(0.0, 1.0, size=sh), epsilon, threshold, int(c)))
    return np.concatenate(outs, axis=1)


def svt(data, *, rng, epsilon, threshold, c, **_):
    q = np.asarray(data, dtype=float).ravel()
    return _run(q, 1, rng, epsilon, threshold, c)[0]


def _batch(data, n, *, rng, epsilon, threshold, c, **_):
    q = np.asarray(data, dtype=float).ravel()
    return _run(q, n, rng, epsilon, threshold, c)


svt.batch = _batch
