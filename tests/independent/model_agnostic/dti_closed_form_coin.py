"""A_stab (Algorithm 2) sampled without a Laplace draw.

Only the event dist + Lap(1/eps) > Gamma matters for the output, so one uniform is
compared with its exact probability (the Laplace survival function). Per call only.
"""
import math


def a_stab(data, *, rng, epsilon, delta, beta=None):
    label, dist = int(data[0]), float(data[1])
    gamma_thr = math.log(1.0 / delta) / epsilon
    z = epsilon * (gamma_thr - dist)            # P[Lap(1/eps) > Gamma - dist]
    if z >= 0:
        p = 0.5 * math.exp(-z)
    else:
        p = 1.0 - 0.5 * math.exp(z)
    return label if rng.random() < p else -1
