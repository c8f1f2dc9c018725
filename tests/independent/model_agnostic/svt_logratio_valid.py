"""Valid A_sparseVec: Laplace(b) drawn as b*log(U1/U2) (difference of two Exp(1) = Lap(1)), on a child
generator spawned from rng; prints a one-line banner to stderr on first use; tuples as inputs accepted."""
import sys

import numpy as np

_said = []


def _lap(g, b, size):
    u1 = 1.0 - g.random(size)          # (0, 1]
    u2 = 1.0 - g.random(size)
    return b * np.log(u1 / u2)


def svt_batch(data, N, *, rng, epsilon, delta, T, w, m, beta=None, **extra):
    if not _said:
        print("svt_logratio_valid: Laplace via log(U1/U2)", file=sys.stderr)
        _said.append(1)
    (g,) = rng.spawn(1)
    q = np.asarray(tuple(data), dtype=float)
    M = len(q)
    lam = np.sqrt(32 * T * np.log(1 / delta)) / epsilon
    thr = w + _lap(g, lam, (N, T + 1))
    qh = q[None, :] + _lap(g, 2 * lam, (N, M))
    out = np.full((N, M), -1, dtype=np.int8)
    c = np.zeros(N, dtype=np.int64)
    alive = np.ones(N, dtype=bool)
    rows = np.arange(N)
    for i in range(M):
        top = qh[:, i] >= thr[rows, np.minimum(c, T)]
        out[alive & top, i] = 1
        bot = alive & ~top
        out[bot, i] = 0
        c = c + bot
        alive &= c <= T
    return out


def svt(data, *, rng, epsilon, delta, T, w, m, beta=None, **extra):
    return svt_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, w=w, m=m)[0]


svt.batch = svt_batch
