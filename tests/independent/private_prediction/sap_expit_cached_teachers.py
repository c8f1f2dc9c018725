"""Subsample-and-aggregate private prediction, soft majority (seed 002 Theorem 1, corrected spec):
output 1 with probability expit(epsilon nu/2), nu = c_1 - c_0. Written differently: the coin is
1 - [U < expit(-epsilon nu/2)] with U = rng.random() (P = 1 - expit(-z) = expit(z)), expit imported lazily
from scipy.special; the dataset form's teachers (r = ceil(6 ln(4/alpha)/epsilon) positional blocks of
m = n // r records, threshold learner t = min{X_i : y_i = 1} or +inf, vote 1 iff x >= t) are computed with
np.minimum.reduceat and cached across calls keyed by the bytes of (X, y) and r (a deterministic function
of the data: no state leaks between datasets). Votes input may be a list [c_0, c_1]. One fresh coin per
query; queries' coins drawn in reverse order. Unused keywords via **_. Law: the spec's."""
import math

import numpy as np

_CACHE = {}


def _expit(z):
    from scipy.special import expit  # lazy
    return expit(z)


def _teachers(X, y, r):
    key = (X.tobytes(), y.tobytes(), r)
    t = _CACHE.get(key)
    if t is None:
        m = X.size // r
        vals = np.where(y[: r * m] == 1, X[: r * m], np.inf)
        t = np.minimum.reduceat(vals, np.arange(0, r * m, m)) if m > 0 else np.full(r, np.inf)
        if len(_CACHE) > 16:
            _CACHE.clear()
        _CACHE[key] = t
    return t


def _nu(data, epsilon, alpha):
    if isinstance(data, dict):
        r = math.ceil(6.0 * math.log(4.0 / alpha) / epsilon)
        X = np.ascontiguousarray(np.asarray(data["X"], dtype=np.float64).reshape(-1))
        y = np.ascontiguousarray(np.asarray(data["y"]).reshape(-1).astype(np.int64))
        t = _teachers(X, y, r)
        q = np.asarray(data["x"], dtype=np.float64)
        c1 = (q.reshape(-1)[:, None] >= t[None, :]).sum(axis=1)
        return (2 * c1 - r).astype(np.float64), q.ndim == 0
    c = np.asarray(data, dtype=np.float64).reshape(-1)
    return np.array([c[1] - c[0]]), True


def predict(data, *, rng, epsilon, alpha, **_):
    nu, scalar = _nu(data, epsilon, alpha)
    p0 = _expit(-0.5 * epsilon * nu)          # P[output 0]
    u = rng.random(nu.size)[::-1]             # coins assigned in reverse order
    out = (u >= p0).astype(np.int8)
    return int(out[0]) if scalar else out


def _batch(data, N, *, rng, epsilon, alpha, **_):
    nu, scalar = _nu(data, epsilon, alpha)
    p0 = _expit(-0.5 * epsilon * nu)
    out = (rng.random((N, nu.size)) >= p0[None, :]).astype(np.int8)
    return out[:, 0] if scalar else out


predict.batch = _batch
