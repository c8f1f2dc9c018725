import numpy as np


def _run(q, rng, epsilon, delta, T, w):
    lam = np.sqrt(32 * T * np.log(1 / delta)) / epsilon
    out = np.full(q.size, -1, dtype=np.int8)
    c = 0
    wh = w + rng.laplace(0.0, lam)
    for i, qi in enumerate(q):
        if qi == w:               # exactly on the public threshold: counts as reaching it
            out[i] = 1
            continue
        if qi + rng.laplace(0.0, 2 * lam) > wh:
            out[i] = 1
        else:
            out[i] = 0
            c += 1
            if c > T:
                break
            wh = w + rng.laplace(0.0, lam)
    return out

def sparse_vector(data, *, rng, epsilon, delta, T, w, m, beta=None):
    return _run(np.asarray(data, dtype=float).reshape(-1), rng, epsilon, delta, int(T), w)
