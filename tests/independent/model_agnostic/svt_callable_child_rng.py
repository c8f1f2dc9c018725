"""Sparse vector (000 Alg 1), valid but unusual.

A callable class instance; each call works on a child generator seeded from
rng; Laplace(b) is drawn as b * (E1 - E2) with E1, E2 standard exponentials;
the comparison is written as (q + Lq) - (w + Lw) > 0; outputs a tuple of
numpy int8 scalars; the batch draws the threshold noise for all n runs and the
T+1 possible thresholds up front (indexing the segment by the bottom count,
which has the same law as re-drawing after each bottom).
"""
import logging

import numpy as np

log = logging.getLogger("svt_variant")


class SparseVector:
    def __init__(self):
        self.calls = 0

    @staticmethod
    def _lam(epsilon, delta, T):
        return np.sqrt(32.0 * T * np.log(1.0 / delta)) / epsilon

    def __call__(self, data, *, rng, epsilon, delta, T, w, m, beta, verbose=False):
        self.calls += 1
        child = np.random.default_rng(rng.integers(2**63))
        lam = self._lam(epsilon, delta, T)
        def lap(b):
            return b * (child.standard_exponential() - child.standard_exponential())
        res = []
        c = 0
        thr_noise = lap(lam)
        for q in np.asarray(data, dtype=float).reshape(-1):
            if c > T:
                res.append(np.int8(-1))
                continue
            if (q + lap(2.0 * lam)) - (w + thr_noise) > 0:
                res.append(np.int8(1))
            else:
                res.append(np.int8(0))
                c += 1
                thr_noise = lap(lam)
        if verbose:
            log.warning("svt call %d: %s", self.calls, res)
        return tuple(res)

    def batch(self, data, n, *, rng, epsilon, delta, T, w, m, beta, verbose=False):
        q = np.asarray(data, dtype=float).reshape(-1)
        lam = self._lam(epsilon, delta, T)
        thr = w + lam * (rng.standard_exponential((n, T + 1)) - rng.standard_exponential((n, T + 1)))
        qn = 2.0 * lam * (rng.standard_exponential((n, q.size)) - rng.standard_exponential((n, q.size)))
        out = np.full((n, q.size), -1, dtype=np.int8)
        c = np.zeros(n, dtype=np.int64)
        idx = np.arange(n)
        for i in range(q.size):
            active = c <= T
            seg = np.minimum(c, T)
            top = q[i] + qn[:, i] > thr[idx, seg]
            out[active & top, i] = 1
            bot = active & ~top
            out[bot, i] = 0
            c = c + bot
        return out


sparse_vector = SparseVector()
