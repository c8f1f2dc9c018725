"""stable_gaussian_prediction, valid variant: Gaussian noise from Marsaglia's
polar method (rejection on the unit disc, both coordinates of each accepted pair
used, each answer its own coordinate), sigma_G = gamma sqrt(2 ln(1.25/delta))/epsilon."""
import math

import numpy as np


def _normals(rng, k):
    out = []
    while len(out) < k:
        u, v = rng.uniform(-1.0, 1.0, size=2)
        s = u * u + v * v
        if s == 0.0 or s >= 1.0:
            continue
        fac = math.sqrt(-2.0 * math.log(s) / s)
        out.append(u * fac)
        out.append(v * fac)
    return np.array(out[:k])


def predict(data, *, rng, epsilon, delta, gamma):
    sig = gamma * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
    f = np.asarray(data, dtype=float)
    if f.ndim == 0:
        return float(f + sig * _normals(rng, 1)[0])
    return f + sig * _normals(rng, f.size).reshape(f.shape)


def _batch(data, n, *, rng, epsilon, delta, gamma):
    sig = gamma * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
    f = np.asarray(data, dtype=float)
    k = n * max(1, f.size)
    z = np.empty(0)
    while z.size < k:
        m = int((k - z.size) * 1.35 / 2) + 16
        u = rng.uniform(-1.0, 1.0, size=m)
        v = rng.uniform(-1.0, 1.0, size=m)
        s = u * u + v * v
        ok = (s > 0.0) & (s < 1.0)
        u, v, s = u[ok], v[ok], s[ok]
        fac = np.sqrt(-2.0 * np.log(s) / s)
        z = np.concatenate([z, np.column_stack([u * fac, v * fac]).ravel()])
    z = z[:k]
    if f.ndim == 0:
        return f + sig * z
    return f + sig * z.reshape((n,) + f.shape)


predict.batch = _batch
