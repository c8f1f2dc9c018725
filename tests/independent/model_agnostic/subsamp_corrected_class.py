"""A_subSamp with the corrected distance dist* = max(0, ceil(gap/2) - 1) (erratum 000-E1).

Unusual but valid: the implementation is a callable class instance; every call derives a
child generator from the given rng (rng.spawn), logs a line to stderr, and returns a plain
python list of ints. The batch method (found as instance.batch) returns a numpy array."""
import sys

import numpy as np


class SubSampleAggregate:
    def __init__(self, verbose=True):
        self.verbose = verbose

    @staticmethod
    def _params(epsilon, delta, T, m):
        lam = float(np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon)
        return lam, 2.0 * lam * float(np.log(2.0 * m / delta))

    @staticmethod
    def _row(ct):
        ct = [int(v) for v in ct]
        mode = max(range(len(ct)), key=lambda r: (ct[r], -r))    # ties -> smallest label
        second = max(ct[r] for r in range(len(ct)) if r != mode)
        gap = ct[mode] - second
        return mode, max(0, (gap + 1) // 2 - 1)                   # ceil(gap/2) - 1

    def __call__(self, data, *, rng, epsilon, delta, T, m, beta):
        child = rng.spawn(1)[0]
        lam, w = self._params(epsilon, delta, T, m)
        rows = [self._row(r) for r in np.asarray(data)]
        out = []
        c = 0
        w_hat = w + child.laplace(0.0, lam)
        for mode, dist in rows:
            if c > T:
                out.append(-2)
                continue
            if dist + child.laplace(0.0, 2.0 * lam) > w_hat:
                out.append(int(mode))
            else:
                out.append(-1)
                c += 1
                w_hat = w + child.laplace(0.0, lam)
        if self.verbose:
            print(f"subsample_aggregate: {sum(o >= 0 for o in out)} released", file=sys.stderr)
        return out

    def batch(self, data, n, *, rng, epsilon, delta, T, m, beta):
        child = np.random.default_rng(rng.integers(2**63))
        lam, w = self._params(epsilon, delta, T, m)
        rows = [self._row(r) for r in np.asarray(data)]
        out = np.full((n, len(rows)), -2, dtype=np.int64)
        c = np.zeros(n, dtype=np.int64)
        w_hat = w + child.laplace(0.0, lam, size=n)
        for i, (mode, dist) in enumerate(rows):
            live = c <= T
            rel = live & (dist + child.laplace(0.0, 2.0 * lam, size=n) > w_hat)
            bot = live & ~rel
            out[rel, i] = mode
            out[bot, i] = -1
            c = c + bot
            w_hat = np.where(bot, w + child.laplace(0.0, lam, size=n), w_hat)
        return out


subsample_aggregate = SubSampleAggregate()
