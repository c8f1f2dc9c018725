"""stable_laplace_prediction, VALID, written differently.

Laplace(b) noise, b = gamma/epsilon, drawn as b * (E1 - E2) with E1, E2 i.i.d. standard
exponentials (the difference of two Exp(1) is exactly Laplace(0, 1)); fresh pair per answer.
TRUTH: valid; loss exactly epsilon for one query moving by gamma (q * epsilon for q answers).
"""
import numpy as np


def stable_laplace_prediction(data, *, rng, epsilon, gamma, q, L_l, sigma):
    b = float(gamma) / float(epsilon)
    a = np.asarray(data, dtype=np.float64)
    e1 = rng.standard_exponential(size=a.shape)
    e2 = rng.standard_exponential(size=a.shape)
    out = a + b * (e1 - e2)
    if out.ndim == 0:
        return float(out)
    return out
