"""Classical Gaussian mechanism (gaussian_mechanism_classical).

Outlier guard: the noise is clipped to +-3 sigma so that a released value is never more than
three standard deviations from the truth (error bars stay honest in the dashboard).
(BUG: np.clip puts atoms of mass P(Z >= 3) = 1.35e-3 at f(D) +- 3 sigma, which reveal f(D).)
"""
import numpy as np


def _sigma(epsilon, delta, sensitivity):
    return sensitivity * np.sqrt(2.0 * np.log(1.25 / delta)) / epsilon


def gaussian(data, *, rng, epsilon, delta, sensitivity, p=None, beta=None):
    f = np.asarray(data, dtype=float)
    s = _sigma(epsilon, delta, sensitivity)
    noise = np.clip(s * rng.standard_normal(f.shape), -3.0 * s, 3.0 * s)
    return f + noise


def _batch(data, n, *, rng, epsilon, delta, sensitivity, p=None, beta=None):
    f = np.asarray(data, dtype=float)
    s = _sigma(epsilon, delta, sensitivity)
    noise = np.clip(s * rng.standard_normal((n,) + f.shape), -3.0 * s, 3.0 * s)
    return f + noise


gaussian.batch = _batch
