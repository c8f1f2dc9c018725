"""Stable histogram (Lemma 15), written differently (valid).

* a callable class instance;
* the Laplace noise is the difference of two Exponential(b) draws (same law as Lap(b));
* noise comes from a child generator seeded from rng (np.random.default_rng(rng.integers(2**63)));
* released iff c~ > tau (strict; {c~ == tau} has probability 0 for continuous noise);
* counts via a dict in a python loop, ids sorted at the end; no batch (per call only);
* output: numpy array built from python lists; prints a line on stderr.
"""
import sys


class StableHist:
    def __init__(self):
        self.calls = 0

    def __call__(self, data, *, rng, epsilon, delta, eta, beta, n, **unused):
        import math

        import numpy as np  # lazy import

        self.calls += 1
        if self.calls == 1:
            print("StableHist: first call", file=sys.stderr)
        child = np.random.default_rng(int(rng.integers(2**63)))
        counts = {}
        for v in np.asarray(data).tolist():
            counts[int(v)] = counts.get(int(v), 0) + 1
        L = len(np.asarray(data))
        b = 2.0 / epsilon
        tau = 1.0 + b * math.log(1.0 / delta)
        keys = sorted(counts)
        e1 = child.exponential(b, size=len(keys))
        e2 = child.exponential(b, size=len(keys))
        rows = []
        for key, a1, a2 in zip(keys, e1, e2):
            c = counts[key] + (a1 - a2)
            if c > tau:
                rows.append([float(key), min(1.0, c / L)])
        rows += [[-1.0, 0.0]] * (L - len(rows))
        return np.array(rows, dtype=np.float64)


hist = StableHist()
