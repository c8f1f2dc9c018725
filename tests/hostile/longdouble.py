"""Not an attack: a correct Laplace mechanism whose outputs are np.longdouble (80-bit extended precision
stored in 16 bytes on x86-64: 6 bytes of padding that no computation writes). Expected: pass, exit 0."""

import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.longdouble)
    return f + rng.laplace(0.0, gamma / epsilon, size=f.shape).astype(np.longdouble)


def laplace_batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.longdouble)
    return f + rng.laplace(0.0, gamma / epsilon, size=(n, *f.shape)).astype(np.longdouble)


laplace.batch = laplace_batch
