"""Gaussian mechanism (exact-profile spec) with a user-style signature: rng is an ordinary positional-or-keyword
parameter defaulting to None (np.random.default_rng() only when the caller passes nothing: the testbed
always passes one), every parameter has a default, and the rest arrives in **kwargs. Noise
sigma * rng.standard_normal(p), output float64 (p,); batch (N, p). Law: f + N(0, sigma^2 I), the spec's."""
import numpy as np


def gaussian(data, rng=None, sigma=1.0, sensitivity=1.0, **kwargs):
    if rng is None:
        rng = np.random.default_rng()
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f + sigma * rng.standard_normal(f.size)


def _batch(data, n, rng=None, sigma=1.0, **kwargs):
    if rng is None:
        rng = np.random.default_rng()
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f[None, :] + sigma * rng.standard_normal((n, f.size))


gaussian.batch = _batch
