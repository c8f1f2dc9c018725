"""A_sparseVec whose output array starts as zeros: rows after the halt stay 0
(reported as 'bottom' instead of -1 'not answered').  Post-processing of the
correct output (both halting markers merged), so still private; law differs."""
import numpy as np


def sparse_vector(data, *, rng, epsilon, delta, T, w, m, beta):
    q = np.asarray(data, dtype=float)
    lam = np.sqrt(32.0 * T * np.log(1.0 / delta)) / epsilon
    out = np.zeros(q.size, dtype=np.int8)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i in range(q.size):
        if q[i] + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = 1
        else:
            c += 1
            if c > T:
                break
            w_hat = w + rng.laplace(0.0, lam)
    return out
