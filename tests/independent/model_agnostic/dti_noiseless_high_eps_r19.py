"""PRIVACY BUG: distance_to_instability (A_stab) that drops the Laplace noise when epsilon >= 12
("the noise scale 1/epsilon is under 1/12 of the integer spacing of dist, it cannot matter").

Below epsilon = 12 the law is exactly the spec's (Laplace via rng.laplace, release iff dist + Lap(1/eps) > Gamma).
TRUTH: at epsilon = 12, delta = 1e-6 (Gamma = log(1e6)/12 = 1.1513) take the pair [0, 1] ~ [0, 2]
(same label 0, distance moved by 1, allowed by query_answers). This file: P[bottom] = 1 on [0, 1] and 0 on [0, 2]:
the event {bottom} has probability 1 against 0, so the privacy loss is infinite and the delta-mass of the
violation is 1 >> delta = 1e-6 (claim (12, 1e-6)). The spec's A_stab there: P[bottom] 0.918 against 1.9e-5
(loss 10.8 <= 12). At the default epsilon = 1 and every epsilon < 12 the law equals the spec's (no violation).
Expected at default flags: pass unless the audit's parameter search reaches epsilon >= 12 (then claim violated).
"""
import math

import numpy as np

_EPS_EXACT = 12.0


def a_stab(data, *, rng, epsilon, delta):
    label = int(data[0])
    dist = float(data[1])
    gamma_thr = math.log(1.0 / delta) / epsilon
    if epsilon >= _EPS_EXACT:
        noisy = dist
    else:
        noisy = dist + rng.laplace(0.0, 1.0 / epsilon)
    return label if noisy > gamma_thr else -1


def a_stab_batch(data, n, *, rng, epsilon, delta):
    label = int(data[0])
    dist = float(data[1])
    gamma_thr = math.log(1.0 / delta) / epsilon
    if epsilon >= _EPS_EXACT:
        noisy = np.full(n, dist)
    else:
        noisy = dist + rng.laplace(0.0, 1.0 / epsilon, size=n)
    return np.where(noisy > gamma_thr, label, -1).astype(np.int64)


a_stab.batch = a_stab_batch
