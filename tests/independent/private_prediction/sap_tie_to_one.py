"""BUG: soft majority that breaks a TIE of the teachers' votes (c_0 == c_1, nu = 0) deterministically to
label 1 ("ties go to the positive class") instead of a fair coin (the spec's logistic at nu = 0 is 1/2);
for nu != 0 it is the spec's exp(eps nu/2)/(1 + exp(eps nu/2)).
Why it breaks privacy: ties only exist when r = ceil(6 ln(4/alpha)/eps) is even, e.g. eps = 4 (r = 6),
eps = 0.7 (r = 32), eps = 2 (r = 12). Then counts [3, 3] (P[0] = 0) vs the neighbour [4, 2] (nu = -2,
P[0] = 1/(1+e^{-4}) = 0.982): output 0 has probability 0 vs 0.982 -> infinite loss. At the default eps = 1
(r = 23, odd) no tie is possible and it is exactly the spec's mechanism.
Expected class: claim violated.
"""
import math

import numpy as np


def _r(epsilon, alpha):
    return int(math.ceil(6.0 * math.log(4.0 / alpha) / epsilon))


def _p1(nu, epsilon):
    z = epsilon * nu / 2.0
    p = np.where(z >= 0, 1.0 / (1.0 + np.exp(-np.abs(z))), np.exp(-np.abs(z)) / (1.0 + np.exp(-np.abs(z))))
    return np.where(nu == 0, 1.0, p)   # the bug: ties to 1


def _nu(data, epsilon, alpha):
    """Return (nu array over queries, scalar_query flag)."""
    if isinstance(data, dict):
        X = np.asarray(data["X"], dtype=float)
        y = np.asarray(data["y"])
        x = np.asarray(data["x"], dtype=float)
        n = X.size
        r = _r(epsilon, alpha)
        m = n // r
        ts = []
        for j in range(r):
            Xb, yb = X[j * m:(j + 1) * m], y[j * m:(j + 1) * m]
            pos = Xb[yb == 1]
            ts.append(pos.min() if pos.size else np.inf)
        ts = np.asarray(ts)
        xs = np.atleast_1d(x)
        c1 = (xs[:, None] >= ts[None, :]).sum(axis=1)
        nu = 2 * c1 - r
        return nu.astype(float), x.ndim == 0
    c = np.asarray(data).reshape(-1)
    return np.array([float(c[1]) - float(c[0])]), True


def sap(data, *, rng, epsilon, alpha, **kw):
    nu, scalar = _nu(data, epsilon, alpha)
    p = _p1(nu, epsilon)
    b = (rng.random(nu.size) < p).astype(np.int8)
    return int(b[0]) if scalar else b


def sap_batch(data, n, *, rng, epsilon, alpha, **kw):
    nu, scalar = _nu(data, epsilon, alpha)
    p = _p1(nu, epsilon)
    b = (rng.random((n, nu.size)) < p[None, :]).astype(np.int8)
    return b[:, 0] if scalar else b


sap.batch = sap_batch
