"""A_stab (seed 000 Algorithm 2) whose Laplace noise is clipped to [-5, 5] ("outliers of the noise are removed"),
per call. No release at dist <= Gamma - 5, never bottom at dist >= Gamma + 5: at epsilon = 1, delta = 1e-6
(Gamma = 13.82) the release probability is 4.1e-3 at dist 9 against 0 at dist 8, and bottom 7.5e-3 at dist 18
against 0 at dist 19: delta needed 4e-3 against 1e-6. Written anew from a round-10 tester's description (the file
itself was lost with its machine)."""
import math

import numpy as np


def distance_to_instability(data, *, rng, epsilon, delta):
    label, dist = int(data[0]), int(data[1])
    gamma = math.log(1 / delta) / epsilon
    noise = float(np.clip(rng.laplace(0.0, 1.0 / epsilon), -5.0, 5.0))
    return label if dist + noise > gamma else -1
