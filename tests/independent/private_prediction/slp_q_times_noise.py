"""stable_laplace_prediction_corrected -- BUG (theorem: Theorem 4 accuracy per answer), triggered
only by an array of q >= 2 predictions.

The programmer 'keeps the whole call within epsilon': when a call asks q predictions at once the
budget is split, each answer gets Lap(q gamma/epsilon) (epsilon/q per answer).  A scalar call, or
an array of length 1, gets the spec's Lap(gamma/epsilon).

TRUTH: privacy is not broken (a q-array costs epsilon <= the claimed q epsilon; more private than
the spec).  But every answer of a q-query call carries q times the noise, so Theorem 4 fails per
query: for the 1-Lipschitz convex loss l(a) = |a - A(S,x)|, E[l(M(S))] - E[l(A(S))] = E|xi| =
q gamma/epsilon = 2 at q = 2 (defaults gamma = epsilon = 1) against the bound L_l gamma/epsilon = 1;
for the 1/4-smooth loss l(a) = (a - A)^2/8, E[xi^2]/8 = 2 q^2/8 = 1.0 at q = 2 against
sigma gamma^2/epsilon^2 = 0.25.  MC (verify_slp_split.py, 1e6 calls of a 2-array on (0, 0)):
mean |xi| 2.0028 and 1.9973 per answer; mean xi^2/8 = 1.0002; scalar calls: mean |xi| 0.9990.
The law of a q-array answer differs from the spec's A + Lap(gamma/epsilon) for every q >= 2.
"""
import numpy as np


def predict(data, *, rng, epsilon, gamma, **params):
    a = np.asarray(data, dtype=float)
    q = a.size if a.ndim >= 1 else 1
    b = q * float(gamma) / float(epsilon)
    if a.ndim == 0:
        return float(a + rng.laplace(0.0, b))
    return a + rng.laplace(0.0, b, size=a.shape)


def _batch(data, n, *, rng, epsilon, gamma, **params):
    a = np.asarray(data, dtype=float)
    q = a.size if a.ndim >= 1 else 1
    b = q * float(gamma) / float(epsilon)
    return a + rng.laplace(0.0, b, size=(int(n),) + a.shape)


predict.batch = _batch
