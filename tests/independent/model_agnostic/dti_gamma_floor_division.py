"""distance_to_instability, BUG: integer division in the threshold: Gamma = log(1/delta) // epsilon
("distances are integers, so the threshold may as well be one") instead of log(1/delta)/epsilon.

Kind: integer (floor) division of a real-valued threshold.

TRUTH (exact): defaults eps = 1, delta = 1e-6: Gamma = 13 instead of 13.8155.
delta_event pair D = [0, 0] vs D' = [1, 0] (labels differ, dist 0): P_D[output 0] = P[Lap(1) > 13]
= 0.5*e^-13 = 1.130e-6 against 0 on D': delta(eps) >= 1.130e-6 > 1e-6 for every eps, the claim broken by 13%
(a delta-level violation needing ~1e8 runs to see). The epsilon-events are unchanged (loss exactly eps).
Law: P[release | dist d] = 0.5 e^{-(13 - d)} for d <= 13, 2.26 times the spec's 0.5 e^{-(13.8155 - d)}
for d <= 13 (e.g. d = 13: 0.5 vs 0.221).
"""
import numpy as np


def dti(data, *, rng, epsilon, delta, beta):
    v = np.asarray(data).ravel()
    label, dist = int(v[0]), float(v[1])
    gamma = np.log(1.0 / delta) // epsilon      # BUG: floor division
    if dist + rng.laplace(0.0, 1.0 / epsilon) > gamma:
        return label
    return -1
