"""Lyu-Su-Li Algorithm 1, vectorised: rho drawn once, all m noisy comparisons at once, then
everything after the c-th top masked to -1 via a cumulative count of tops. Same law as the
sequential loop (comparisons after the c-th top are computed and thrown away; their noise is
independent of the released prefix). Randomness from a child generator spawned from rng.
"""
import logging

import numpy as np

log = logging.getLogger("svt1")


def _run(q, n, rng, epsilon, threshold, c):
    child = rng.spawn(1)[0]
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    rho = child.laplace(0.0, 1.0 / eps1, size=(n, 1))
    nu = child.laplace(0.0, 2.0 * c / eps2, size=(n, q.size))
    top = (q + nu) >= (threshold + rho)
    before = np.cumsum(top, axis=1) - top          # tops strictly before position i
    out = np.where(top, 1, 0).astype(np.int8)
    out[before >= c] = -1
    return out


def svt(data, *, rng, epsilon, threshold, c, **_unused):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    log.debug("svt on %d queries", q.size)
    return _run(q, 1, rng, epsilon, threshold, int(c))[0]


def _batch(data, n, *, rng, epsilon, threshold, c, **_unused):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    return _run(q, int(n), rng, epsilon, threshold, int(c))


svt.batch = _batch
