"""Sparse vector, Lyu-Su-Li Algorithm 2, but the query noise is drawn once for the first 50 queries and
reused cyclically after that (np.resize): queries i and i+50 share their noise."""
import numpy as np


def svt(data, *, rng, epsilon, threshold, c, **_):
    q = np.asarray(data, dtype=float).ravel()
    m = q.size
    c = int(c)
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    nu = np.resize(rng.laplace(0.0, 2.0 * c / eps1, size=min(m, 50)), m)
    out = np.full(m, -1, dtype=np.int8)
    rho = rng.laplace(0.0, c / eps1)
    count = 0
    for i in range(m):
        if count >= c:
            break
        if q[i] + nu[i] >= threshold + rho:
            out[i] = 1
            count += 1
            rho = rng.laplace(0.0, c / eps2)
        else:
            out[i] = 0
    return out
