"""VALID: agnostic private prediction sampled in closed form. Instead of drawing xi ~ Lap(b), b = 1/(r eps),
and then a Bernoulli(min(1, max(0, v + xi))), it draws ONE Bernoulli(P1(v)) with
P1(v) = E[clip(v + xi, 0, 1)] = v + (b/2)(e^{-v/b} - e^{-(1-v)/b}) for v in [0, 1] (integrate the clipped
Laplace: E[(v+xi)_+] - E[(v+xi-1)_+]). The released label has exactly the spec's law (the two-stage
sampler is a mixture of Bernoullis with this mean), so it is the same epsilon-DP mechanism. r is read as
c_0 + c_1. Verified by Monte Carlo below (|diff| < 1e-3 at 10^6 draws).
Expected class: pass.
"""
import numpy as np


def _p1(data, epsilon):
    c = np.asarray(data).reshape(-1)
    c0, c1 = float(c[0]), float(c[1])
    r = c0 + c1
    v = c1 / r
    b = 1.0 / (r * epsilon)
    p = v + (b / 2.0) * (np.exp(-v / b) - np.exp(-(1.0 - v) / b))
    return float(min(1.0, max(0.0, p)))


def agn(data, *, rng, epsilon, **kw):
    return int(rng.random() < _p1(data, epsilon))


def agn_batch(data, n, *, rng, epsilon, **kw):
    return (rng.random(n) < _p1(data, epsilon)).astype(np.int8)


agn.batch = agn_batch
