"""A_OQR with a 'free re-release' shortcut: a query whose exact answer equals a
label already published in this run is answered with that label without a
stability test (the argument being that re-publishing a public value costs no
privacy and no cutoff budget)."""
import numpy as np


def online_query_release(data, *, rng, epsilon, delta, T, m, beta):
    rows = np.asarray(data, dtype=float).reshape(-1, 2)
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * np.log(2.0 * m / delta)
    out = np.full(rows.shape[0], -2, dtype=np.int64)
    released = set()
    w_hat = w + rng.laplace(0.0, lam)
    c = 0
    for i in range(rows.shape[0]):
        if c > T:
            break
        label = int(rows[i, 0])
        if label in released:          # already public: no test, no budget
            out[i] = label
            continue
        if rows[i, 1] + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = label
            released.add(label)
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out
