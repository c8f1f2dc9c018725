"""Soft-majority prediction whose teacher blocks come from a random permutation of the positions,
drawn from rng independently of the data (the spec's 'or a permutation drawn independently of the
data'), with a logit written in log-space, and no batch sampler.

VALID VARIANT: a data-independent random partition keeps every record in exactly one block, so the
vote count still moves by at most one teacher and the soft majority is eps-DP; accuracy is the same
(each block is an i.i.d. sample).
"""
import math

import numpy as np


def predict(data, *, rng, epsilon, alpha):
    if isinstance(data, dict):
        r = math.ceil(6.0 * math.log(4.0 / alpha) / epsilon)
        X = np.asarray(data["X"], dtype=np.float64).reshape(-1)
        y = np.asarray(data["y"]).reshape(-1)
        n = X.size
        m = n // r
        perm = rng.permutation(n)[: r * m].reshape(r, m)
        t = np.array([X[b][y[b] == 1].min() if np.any(y[b] == 1) else np.inf for b in perm])
        q = np.asarray(data["x"], dtype=np.float64)
        c1 = (q.reshape(-1)[:, None] >= t[None, :]).sum(axis=1)
        nu = 2 * c1 - r
        scalar = q.ndim == 0
    else:
        c = np.asarray(data).reshape(-1)
        nu = np.array([int(c[1]) - int(c[0])])
        scalar = True
    z = 0.5 * epsilon * nu
    logp1 = -np.logaddexp(0.0, -z)
    out = (np.log(1.0 - rng.random(nu.shape)) < logp1).astype(np.int8)
    return int(out[0]) if scalar else out
