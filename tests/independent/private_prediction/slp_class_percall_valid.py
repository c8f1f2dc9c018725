"""stable_laplace_prediction -- VALID VARIANT.

What it is: A(S, x) + Lap(gamma/epsilon) with a different sampler and structure:
  * the predictor is an instance of a class with __call__ (no .batch: per-call only);
  * the Laplace variable is b * ln(U1 / U2) with U1, U2 independent uniform on (0, 1]
    (U = 1 - rng.random()); ln U1 - ln U2 = E2 - E1 with E_i = -ln U_i ~ Exp(1)
    independent, so b ln(U1/U2) ~ Lap(b) exactly;
  * an array / list of q predictions gets q independent pairs (fresh noise per query);
    the answer is returned as a Python list of floats converted back to an ndarray
    at the end (float64).
TRUTH: same law as the spec's mechanism: A(S, x) + Lap(gamma/epsilon), fresh per query;
exactly epsilon-DP (Theorem 3), E|xi| = gamma/eps, E xi^2 = 2 gamma^2/eps^2.
"""
import math

import numpy as np


class LaplacePredictor:
    def __call__(self, data, *, rng, epsilon=1.0, gamma=1.0, **params):
        b = float(gamma) / float(epsilon)
        scalar = np.ndim(data) == 0
        preds = [float(data)] if scalar else [float(v) for v in np.ravel(data)]
        out = []
        for p in preds:
            u1 = 1.0 - rng.random()
            u2 = 1.0 - rng.random()
            out.append(p + b * math.log(u1 / u2))
        if scalar:
            return out[0]
        return np.array(out, dtype=np.float64)


predict = LaplacePredictor()
