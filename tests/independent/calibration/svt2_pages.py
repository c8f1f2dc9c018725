"""Sparse vector, Lyu-Su-Li Algorithm 2 (Dwork-Roth): rho = Lap(c/eps1), re-drawn after every top;
nu_i = Lap(2c/eps1); abort after c tops.  Answers are served in pages of 16 queries (one
vectorised pass per page); each page starts from a freshly drawn threshold, as after a top."""
import numpy as np

PAGE = 16


def _batch(data, n, *, rng, epsilon, threshold, c, **_):
    q = np.asarray(data, dtype=float).ravel()
    m = q.size
    c = int(c)
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    out = np.full((n, m), -1, dtype=np.int8)
    count = np.zeros(n, dtype=np.int64)
    rho = rng.laplace(0.0, c / eps1, size=n)
    for i in range(m):
        if i > 0 and i % PAGE == 0:
            rho = rng.laplace(0.0, c / eps1, size=n)          # new page: fresh threshold
        nu = rng.laplace(0.0, 2.0 * c / eps1, size=n)
        active = count < c
        top = active & (q[i] + nu >= threshold + rho)
        out[active, i] = 0
        out[top, i] = 1
        count += top
        redraw = rng.laplace(0.0, c / eps2, size=n)
        rho = np.where(top, redraw, rho)                      # Algorithm 2: re-draw after a top
    return out


def svt(data, *, rng, epsilon, threshold, c, **_):
    return _batch(data, 1, rng=rng, epsilon=epsilon, threshold=threshold, c=c)[0]


svt.batch = _batch
