"""A_stab (distance to instability) with a fast path for 'obviously stable' inputs.

BUG (privacy, a delta leak): "beyond Gamma + 10 noise scales the Laplace tail is e^-10, negligible,
so release f(D) without drawing noise".  e^-10/2 = 2.3e-5 is NOT negligible against delta = 1e-6.

Defaults epsilon = 1, delta = 1e-6: Gamma = ln(1e6) = 13.8155, fast path for dist > 23.8155,
i.e. dist >= 24.  Neighbouring pair (query_answers: dist moves by 1, same label):
    D = [0, 23]  ->  bottom with probability P[23 + Lap(1) <= Gamma] = exp(-(23 - Gamma))/2 = 5.13e-5
    D' = [0, 24] ->  released with probability 1 (bottom never)
Event {bottom}: P_D - e^epsilon * P_D' = 5.13e-5, i.e. the pair is (epsilon', 5.13e-5)-DP at best for
every epsilon': delta is exceeded 51-fold (epsilon is infinite at delta = 1e-6).
Everywhere else (dist <= 23) the law is exactly the spec's: release iff dist + Lap(1/eps) > Gamma,
bottom encoded -1.
"""
import math


def a_stab(data, *, rng, epsilon, delta):
    label, dist = int(data[0]), int(data[1])
    gamma = math.log(1.0 / delta) / epsilon
    if dist > gamma + 10.0 / epsilon:        # BUG: "tail beyond 10 scales is negligible"
        return label
    if dist + rng.laplace(0.0, 1.0 / epsilon) > gamma:
        return label
    return -1
