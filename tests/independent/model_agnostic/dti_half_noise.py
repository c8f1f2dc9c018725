"""A_stab with Lap(1/(2 eps)) noise ('the threshold already covers half the budget').

PRIVACY BUG: the release probability exp(-2 eps (Gamma - d))/2 moves by e^(2 eps) per unit of
distance: on epsilon_event_below_Gamma the loss is 2 eps = 2 at eps = 1; the delta event shrinks
to delta^2/2.
"""
import math

import numpy as np


def stab(data, *, rng, epsilon, delta):
    f, dist = (int(v) for v in np.asarray(data).reshape(-1)[:2])
    return f if dist + rng.laplace(0.0, 0.5 / epsilon) > math.log(1.0 / delta) / epsilon else -1


def _batch(data, N, *, rng, epsilon, delta):
    f, dist = (int(v) for v in np.asarray(data).reshape(-1)[:2])
    g = math.log(1.0 / delta) / epsilon
    return np.where(dist + rng.laplace(0.0, 0.5 / epsilon, size=N) > g, f, -1).astype(np.int64)


stab.batch = _batch
