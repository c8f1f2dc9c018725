"""stable_gaussian_prediction -- BUG (privacy; triggered by the call pattern).

What it is: A(S, x) + N(0, sigma_G^2), with sigma_G "computed once" and memoised in a
default-argument dict keyed by (epsilon, delta) -- the key forgets gamma.  Within one
process, the first call with a given (epsilon, delta) fixes sigma_G for every later call
with the same (epsilon, delta), whatever gamma.

TRUTH: a fresh process at any single parameter point: exactly the spec's law (correct).
After one call at gamma = 1 (epsilon = 0.5, delta = 1e-5: sigma_G = 9.68961), a call at
gamma = 2 uses sigma 9.68961 instead of 19.3792: the release is (2/9.68961) = 0.20641-GDP
instead of the claimed 0.10320-GDP; exact delta(eps = 0.5) = 6.7e-4 vs the claimed 1e-5 (the spec's mechanism: 1.6e-8),
pair f = 0 vs f' = 2 (MC: std 9.68 measured at gamma = 2, 2e5 draws).
At gamma = 4 after gamma = 1: mu = 0.4128, delta(0.5) = 0.0286.  The reverse order (first
call gamma = 4, then gamma = 1) adds 4x the noise (more private, law differs).
"""
import math

import numpy as np


def predict(data, *, rng, epsilon=0.5, delta=1e-5, gamma=1.0, _sigma_cache={}, **params):
    key = (float(epsilon), float(delta))
    sigma = _sigma_cache.get(key)
    if sigma is None:
        sigma = gamma * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
        _sigma_cache[key] = sigma
    a = np.asarray(data, dtype=np.float64)
    out = a + rng.normal(0.0, sigma, size=a.shape)
    return float(out) if out.ndim == 0 else out


def _batch(data, n, *, rng, epsilon=0.5, delta=1e-5, gamma=1.0, **params):
    a = np.asarray(data, dtype=np.float64)
    return np.stack([predict(data, rng=rng, epsilon=epsilon, delta=delta, gamma=gamma)
                     for _ in range(n)]) if a.ndim else \
        np.array([predict(data, rng=rng, epsilon=epsilon, delta=delta, gamma=gamma)
                  for _ in range(n)], dtype=np.float64)


predict.batch = _batch
