# dti_plain.py -- A_stab (Algorithm 2 of paper 000), written the README's way: one call at a time.
import math


def stab(data, *, rng, epsilon, delta, beta=None):
    label, dist = int(data[0]), float(data[1])
    gamma = math.log(1.0 / delta) / epsilon
    u = rng.random() - 0.5                      # Laplace(1/epsilon) by inverse CDF
    noise = -math.copysign(1.0, u) * math.log1p(-2.0 * abs(u)) / epsilon
    return label if dist + noise > gamma else -1
