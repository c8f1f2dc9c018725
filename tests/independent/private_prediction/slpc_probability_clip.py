"""Laplace prediction (paper 002, Theorem 3 / Lemma 4) that keeps probability predictions probabilities.

Convenience: when the learner's prediction A(S, x) is a probability (0 <= a <= 1) the noisy
release is clipped back into [0, 1] "so downstream code still gets a probability"; other
predictions (scores, regressions) are released unclipped. Clipping alone would be harmless
post-processing, but *whether* to clip is decided on the exact prediction: for a = 0.5 the
release has atoms at 0 and 1 (mass e^-0.5/2 each at epsilon = gamma = 1), for its neighbour
a = 1.5 it is continuous and never exactly 1.
"""
import numpy as np


def _release(a, noise):
    out = a + noise
    inside = (a >= 0.0) & (a <= 1.0)
    return np.where(inside, np.clip(out, 0.0, 1.0), out)


def predict(data, *, rng, epsilon, gamma, q=1, L_l=1.0, sigma=0.25, **_):
    a = np.asarray(data, dtype=float)
    out = _release(a, rng.laplace(0.0, gamma / epsilon, size=a.shape))
    return float(out) if out.ndim == 0 else out


def _batch(data, n, *, rng, epsilon, gamma, q=1, L_l=1.0, sigma=0.25, **_):
    a = np.asarray(data, dtype=float)
    return _release(a, rng.laplace(0.0, gamma / epsilon, size=(n, *a.shape)))


predict.batch = _batch
