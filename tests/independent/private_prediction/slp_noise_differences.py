"""stable_laplace_prediction -- BUG (privacy, joint release of q queries).

What it is: A(S, x) + Lap(gamma/epsilon), the Laplace noise built as a difference of two
Exp(b) variables.  To "save draws" the vectorised path draws q+1 exponentials once and uses
np.diff: noise_j = e_{j+1} - e_j.  Each noise_j is exactly Lap(b) (difference of two
independent Exp(b)), so every single answer has the spec's law and a single query is
exactly epsilon-DP.  But consecutive answers share an exponential, so the q noises are
correlated and the q-query release (Lemma 4: q*epsilon) is broken.

TRUTH: q = 2, b = gamma/eps = 1 (defaults gamma = eps = 1), predictions (0, 0) vs
(gamma, gamma).  Noise density of (n0, n1) is prop. to
exp(-(2 n0 + n1 + 3 max(0, -n0, -n0-n1)) / b), so on {n0 >= gamma, n0 + n1 >= 2 gamma}
the density ratio is exactly e^{3 gamma / b}: pure loss 3 eps = 3 > q eps = 2 (Lemma 4's
bound).  q = 3: loss 6 > 3 (sum of partial sums 1+2+3).  Single query: exact, loss eps.
"""
import numpy as np


def _noise(q, b, rng):
    e = rng.exponential(b, size=q + 1)
    return np.diff(e)          # e[1:] - e[:-1]: each Lap(b), consecutive ones share an e


def predict(data, *, rng, epsilon=1.0, gamma=1.0, **params):
    b = gamma / epsilon
    a = np.asarray(data, dtype=np.float64)
    if a.ndim == 0:
        return float(a + _noise(1, b, rng)[0])
    return a + _noise(a.shape[0], b, rng)


def _batch(data, n, *, rng, epsilon=1.0, gamma=1.0, **params):
    b = gamma / epsilon
    a = np.asarray(data, dtype=np.float64)
    if a.ndim == 0:
        e = rng.exponential(b, size=(n, 2))
        return a + (e[:, 1] - e[:, 0])
    q = a.shape[0]
    e = rng.exponential(b, size=(n, q + 1))
    return a[None, :] + np.diff(e, axis=1)


predict.batch = _batch
