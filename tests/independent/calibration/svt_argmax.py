"""Sparse vector, Lyu-Su-Li Algorithm 2 / Dwork-Roth (svt_lyu_2), vectorised per segment.

Each segment (between tops) draws its threshold noise and the remaining queries' noise at once and
finds the first top with np.argmax.
(Slip: np.argmax of an all-False mask is 0, so a segment with no top reports a top at its first query.
For c = 1 this maps the all-bottom transcript to (1, -1, ..., -1): post-processing of the correct
transcript, so still epsilon-DP, but the law differs.)
"""
import numpy as np


def svt(data, *, rng, epsilon, threshold, c):
    q = np.asarray(data, dtype=float)
    m = q.size
    eps1 = epsilon / 2.0
    out = np.zeros(m, dtype=np.int8)
    pos, tops = 0, 0
    while pos < m and tops < c:
        rho = rng.laplace(0.0, c / eps1)
        nu = rng.laplace(0.0, 2.0 * c / eps1, size=m - pos)
        hit = q[pos:] + nu >= threshold + rho
        k = int(np.argmax(hit))
        out[pos + k] = 1
        tops += 1
        pos = pos + k + 1
    if tops >= c:
        out[pos:] = -1
    return out
