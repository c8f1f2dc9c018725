"""A_stab (distance to instability) without drawing a Laplace variate: the release decision is a Bernoulli
with the closed-form probability P[dist + Lap(1/eps) > Gamma] -- but written with the *left* tail formula
0.5*exp(eps*(dist-Gamma)) for every dist, clipped to 1 (the right-tail branch 1 - 0.5 exp(-eps(dist-Gamma)) was
forgotten). For dist >= Gamma + ln2/eps the release becomes certain."""
import numpy as np


def _p_release(dist, epsilon, delta):
    gamma = np.log(1.0 / delta) / epsilon
    return np.minimum(1.0, 0.5 * np.exp(epsilon * (np.asarray(dist, float) - gamma)))


def a_stab(data, *, rng, epsilon, delta, beta=None):
    f, dist = int(data[0]), int(data[1])
    return f if rng.random() < _p_release(dist, epsilon, delta) else -1


def a_stab_batch(data, n, *, rng, epsilon, delta, beta=None):
    f, dist = int(data[0]), int(data[1])
    u = rng.random(n)
    return np.where(u < _p_release(dist, epsilon, delta), f, -1).astype(np.int64)


a_stab.batch = a_stab_batch
