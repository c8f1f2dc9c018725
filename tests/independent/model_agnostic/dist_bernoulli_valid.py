"""Valid variant of A_stab: the Laplace draw is replaced by one Bernoulli with the exact two-sided probability
P[dist + Lap(1/eps) > Gamma]; a callable class instance with a lazy import; no batch (per-call only).
The output (label or -1) is a function of the event {dist + L > Gamma} alone, so its law is exactly the spec's."""
import math


class AStab:
    def __call__(self, data, *, rng, epsilon, delta, beta=None, **unused):
        gamma = math.log(1.0 / delta) / epsilon
        f, dist = int(data[0]), int(data[1])
        z = epsilon * (dist - gamma)           # P[L > Gamma - dist], L ~ Lap(1/eps)
        p = 0.5 * math.exp(z) if z <= 0 else 1.0 - 0.5 * math.exp(-z)
        return int(f) if rng.random() < p else -1


a_stab = AStab()
