"""distance_to_instability (A_stab, Alg 2), valid variant: instead of drawing
Lap(1/eps) and comparing, draw one uniform and compare it with the exact release
probability P[dist + Lap(1/eps) > Gamma] (inverse-CDF in closed form)."""
import math


class AStab:
    def __call__(self, data, *, rng, epsilon, delta, verbose=False):
        label, dist = int(data[0]), float(data[1])
        gamma = math.log(1.0 / delta) / epsilon
        z = epsilon * (dist - gamma)
        p_release = 1.0 - 0.5 * math.exp(-z) if z >= 0 else 0.5 * math.exp(z)
        return label if rng.random() < p_release else -1


release = AStab()
