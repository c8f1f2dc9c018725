"""A_stab that skips the noise when the distance is 'clearly' large: if dist > 2 Gamma release f
directly, otherwise the noisy test.

DIFFERS: at d = floor(2 Gamma) vs d + 1 (eps = 1, delta = 1e-6: Gamma = 13.8, d = 27 vs 28) the
bottom has probability exp(-eps (d - Gamma))/2 = 9e-7 on D and exactly 0 on D': an infinite pure
loss, but on an event of mass <= delta/2, so (eps, delta)-DP still holds (the hockey-stick
divergence at eps is 9e-7 < delta). The law differs from the spec above 2 Gamma.
"""
import math

import numpy as np


def stab(data, *, rng, epsilon, delta):
    f, dist = (int(v) for v in np.asarray(data).reshape(-1)[:2])
    g = math.log(1.0 / delta) / epsilon
    if dist > 2 * g:
        return f
    return f if dist + rng.laplace(0.0, 1.0 / epsilon) > g else -1


def _batch(data, N, *, rng, epsilon, delta):
    return np.array([stab(data, rng=rng, epsilon=epsilon, delta=delta) for _ in range(N)], dtype=np.int64)


stab.batch = _batch
