"""Stable histogram (Lemma 15) -- VALID variant: callable class instance; Laplace noise by
inverse CDF from uniforms of rng.spawn'ed children (one child per distinct item, in
ascending id order); items sorted with a dict; output a tuple of tuples of numpy scalars.
Law: independent Lap(2/eps) on each occurring item's count, threshold 1 + (2/eps) ln(1/delta)."""
import math

import numpy as np


class StableHist:
    def __call__(self, data, *, rng, epsilon, delta, eta, beta, n, **extra):
        counts = {}
        for v in np.asarray(data).tolist():
            counts[int(v)] = counts.get(int(v), 0) + 1
        ids = sorted(counts)
        b = 2.0 / epsilon
        tau = 1.0 + b * math.log(1.0 / delta)
        children = rng.spawn(len(ids)) if ids else []
        rows = []
        for i, ch in zip(ids, children):
            u = ch.random() - 0.5                      # in [-0.5, 0.5)
            if u == -0.5:                              # probability-2^-53 event: redraw
                u = ch.random() - 0.5
            lap = -b * math.copysign(1.0, u) * math.log1p(-2.0 * abs(u))
            c = counts[i] + lap
            if c >= tau:
                rows.append((np.float64(i), np.float64(min(1.0, c / n))))
        rows += [(np.float64(-1.0), np.float64(0.0))] * (int(n) - len(rows))
        return tuple(rows)


stable_hist = StableHist()
