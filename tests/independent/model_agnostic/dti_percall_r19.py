"""VALID: distance_to_instability (A_stab, 000 Alg 2), per-call function without .batch.

Laplace noise drawn by inverse CDF from one uniform (log1p form, no log(0)); release iff
dist + Lap(1/eps) > Gamma = log(1/delta)/eps. Same law as the spec (the comparison uses >= instead
of >, an event of probability 0 for continuous noise).
TRUTH: identical law to the spec's A_stab; (eps, delta)-DP holds (Thm 3.2). Expected: pass (exit 0).
"""
import math


def _laplace(rng, b):
    u = rng.random() - 0.5            # in [-0.5, 0.5)
    a = abs(u)
    if a >= 0.5:
        a = 0.5 - 1e-17
    return -b * math.copysign(1.0, u) * math.log1p(-2.0 * a)


def a_stab(data, *, rng, epsilon, delta):
    label = int(data[0])
    dist = float(data[1])
    gamma_thr = math.log(1.0 / delta) / epsilon
    noisy = dist + _laplace(rng, 1.0 / epsilon)
    return label if noisy >= gamma_thr else -1
