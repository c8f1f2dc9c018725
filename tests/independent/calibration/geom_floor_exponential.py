"""Geometric (discrete Laplace) mechanism with the noise as the difference of two floored exponentials:
G = floor(E/rate) with E ~ Exp(1) and rate = epsilon/sensitivity,
so P[G >= k] = exp(-k epsilon/sensitivity) = alpha^k (geometric on {0, 1, ...}); G1 - G2 of two i.i.d. copies
has P[Z = k] = (1 - alpha)/(1 + alpha) alpha^|k|. Output int64 (p,); batch int64 (N, p). Law: the spec's."""
import numpy as np


def _noise(rng, rate, size):
    g1 = np.floor(rng.standard_exponential(size) / rate)
    g2 = np.floor(rng.standard_exponential(size) / rate)
    return (g1 - g2).astype(np.int64)


def geometric(data, *, rng, epsilon, sensitivity):
    f = np.rint(np.asarray(data, dtype=np.float64).reshape(-1)).astype(np.int64)
    return f + _noise(rng, epsilon / sensitivity, f.size)


def _batch(data, N, *, rng, epsilon, sensitivity):
    f = np.rint(np.asarray(data, dtype=np.float64).reshape(-1)).astype(np.int64)
    return f[None, :] + _noise(rng, epsilon / sensitivity, (N, f.size))


geometric.batch = _batch
