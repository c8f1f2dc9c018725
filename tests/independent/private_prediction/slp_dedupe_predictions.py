"""stable_laplace_prediction(_corrected) -- BUG (privacy of the q-query release; duplicates).

What it is: A(S, x) + Lap(gamma/eps) per query, but a q-query call first de-duplicates the
predictions (np.unique(..., return_inverse=True)) "to add noise once per distinct value"
and maps the noisy distinct values back.  Queries whose exact predictions differ get
independent fresh noise (the spec's law); queries whose predictions coincide get the SAME
answer.
TRUTH: single query: exact.  q = 2: (0, 0) vs (0, gamma) (one record moves the second
prediction by gamma): on D the two answers are equal w.p. 1, on D' w.p. 0: infinite loss
for the joint release (claim q eps = 2).  Inputs with distinct predictions: exact law.
"""
import numpy as np


def predict(data, *, rng, epsilon=1.0, gamma=1.0, **params):
    b = gamma / epsilon
    a = np.asarray(data, dtype=np.float64)
    if a.ndim == 0:
        return float(a + rng.laplace(0.0, b))
    u, inv = np.unique(a, return_inverse=True)
    noisy = u + rng.laplace(0.0, b, size=u.shape[0])
    return noisy[inv.reshape(a.shape)]
