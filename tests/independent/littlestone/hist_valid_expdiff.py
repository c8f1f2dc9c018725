"""Stable histogram Hist (Lemma 15), valid variant.

Unusual but same law: a callable class instance; Laplace noise sampled as the difference of two
Exp(1) variables scaled by b (E1 - E2 ~ Lap(1)); output returned as a nested python list (n rows of
[id, a]); a note printed to stderr per call; no .batch (per-call only); extra keywords ignored.
"""
import math
import sys


class _StableHistogram:
    def __call__(self, data, *, rng, epsilon, delta, eta, beta, n, **unused):
        import numpy as np  # lazy import
        x = np.asarray(data, dtype=np.int64).ravel()
        ids, counts = np.unique(x, return_counts=True)       # only items that occur
        b = 2.0 / epsilon
        tau = 1.0 + b * math.log(1.0 / delta)
        z = b * (rng.standard_exponential(ids.size) - rng.standard_exponential(ids.size))
        noisy = counts + z
        rows = []
        for item, c in zip(ids.tolist(), noisy.tolist()):    # ids ascending
            if c >= tau:
                rows.append([float(item), min(1.0, c / n)])
        print(f"hist: {len(rows)} released of {ids.size}", file=sys.stderr)
        rows += [[-1.0, 0.0]] * (len(x) - len(rows))
        return rows


stable_histogram = _StableHistogram()
