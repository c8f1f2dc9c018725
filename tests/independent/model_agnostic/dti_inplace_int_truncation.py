"""Distance to instability (000 Alg 2) updating the input array in place.

Differs (claim holds): the noisy distance is written back into the int array
[f(D), dist] (``x[1] = x[1] + noise``), which numpy silently truncates towards
zero.  The test becomes trunc(dist + Lap(1/eps)) > Gamma, i.e.
dist + Lap >= ceil(Gamma) = 14 instead of > 13.8155 at the defaults.  It is a
post-processing of the Laplace mechanism on dist (Lemma 3.3 holds with
epsilon), and P[release | dist = 0] = exp(-14)/2 = 4.2e-7 < delta/2.
"""
import math

import numpy as np


def a_stab(data, *, rng, epsilon, delta, beta):
    x = np.array(data, dtype=np.int64).reshape(-1)
    gamma_thr = math.log(1.0 / delta) / epsilon
    x[1] = x[1] + rng.laplace(0.0, 1.0 / epsilon)
    return int(x[0]) if x[1] > gamma_thr else -1


def _batch(data, n, *, rng, epsilon, delta, beta):
    base = np.array(data, dtype=np.int64).reshape(-1)
    x = np.tile(base, (n, 1))
    gamma_thr = math.log(1.0 / delta) / epsilon
    x[:, 1] = x[:, 1] + rng.laplace(0.0, 1.0 / epsilon, size=n)
    return np.where(x[:, 1] > gamma_thr, x[:, 0], -1).astype(np.int64)


a_stab.batch = _batch
