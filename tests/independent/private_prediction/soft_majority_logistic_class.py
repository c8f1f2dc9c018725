"""Soft-majority private prediction (Theorem 1, corrected), as a callable class instance.

Label 1 with probability sigma(epsilon*nu/2), nu = c1 - c0, sampled as a noisy threshold:
1[epsilon*nu/2 + L > 0] with L ~ Logistic(0, 1), since Pr[L > -z] = sigma(z). Draws come from a
child generator spawned from the given rng. Dataset form: r = ceil(6 ln(4/alpha)/epsilon)
positional blocks of m = n // r records, teacher j = A_min (min positive x, +inf if none).
"""
import math
import sys

import numpy as np


class SoftMajority:
    def __init__(self):
        self.calls = 0

    @staticmethod
    def _nu(data, alpha, epsilon):
        if isinstance(data, dict):
            X = np.asarray(data["X"], dtype=float)
            y = np.asarray(data["y"])
            xq = np.atleast_1d(np.asarray(data["x"], dtype=float))
            r = math.ceil(6.0 * math.log(4.0 / alpha) / epsilon)
            m = X.size // r
            t = np.full(r, np.inf)
            for j in range(r):
                Xb, yb = X[j * m:(j + 1) * m], y[j * m:(j + 1) * m]
                pos = Xb[yb == 1]
                if pos.size:
                    t[j] = pos.min()
            c1 = (xq[:, None] >= t[None, :]).sum(axis=1)
            scalar = np.ndim(data["x"]) == 0
            return (2 * c1 - r).astype(float), scalar
        c = np.asarray(data)
        return np.array([float(c[1]) - float(c[0])]), True

    def __call__(self, data, *, rng, epsilon, alpha=0.1, **unused):
        self.calls += 1
        if self.calls == 1:
            print("soft majority: logistic-threshold sampler", file=sys.stderr)
        child = rng.spawn(1)[0]
        nu, scalar = self._nu(data, alpha, epsilon)
        bits = (epsilon * nu / 2.0 + child.logistic(0.0, 1.0, size=nu.shape) > 0).astype(np.int8)
        return int(bits[0]) if scalar else bits

    def batch(self, data, n, *, rng, epsilon, alpha=0.1, **unused):
        child = rng.spawn(1)[0]
        nu, scalar = self._nu(data, alpha, epsilon)
        bits = (epsilon * nu / 2.0 + child.logistic(0.0, 1.0, size=(n, nu.size)) > 0).astype(np.int8)
        return bits[:, 0] if scalar else bits


soft_majority = SoftMajority()
