"""A_stab with two-sided geometric noise (dist is an integer, so integer noise
P[Z=k] ~ exp(-epsilon |k|) is used instead of Laplace)."""
import numpy as np


def distance_to_instability(data, *, rng, epsilon, delta, beta):
    label, dist = (int(v) for v in np.asarray(data).ravel()[:2])
    p = 1.0 - np.exp(-epsilon)
    z = int(rng.geometric(p)) - int(rng.geometric(p))   # difference of two geometrics
    gamma_thr = np.log(1.0 / delta) / epsilon
    return label if dist + z > gamma_thr else -1
