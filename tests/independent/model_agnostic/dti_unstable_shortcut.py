"""A_stab with a 'safety' special case: a query with distance 0 is unstable by
definition, so it is answered bottom directly (no noise drawn)."""
import numpy as np


def distance_to_instability(data, *, rng, epsilon, delta, beta):
    label, dist = (int(v) for v in np.asarray(data).ravel()[:2])
    if dist == 0:
        return -1
    gamma_thr = np.log(1.0 / delta) / epsilon
    return label if dist + rng.laplace(0.0, 1.0 / epsilon) > gamma_thr else -1
