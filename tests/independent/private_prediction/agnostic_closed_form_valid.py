"""Agnostic private prediction (Corollary 1, corrected constants), valid but unusual.

Instead of drawing xi ~ Lap(b) and then a coin with probability clip(v + xi, 0, 1), draw the label
directly from its marginal: Pr[1] = E[clip(v + xi, 0, 1)] = v + (b/2)(e^(-v/b) - e^(-(1-v)/b))
for v in [0, 1] (integrate the Laplace tails). An exact tie c_0 == c_1 (v = 1/2) is answered by a
fair coin, which is the same law (the clipped Laplace is symmetric about 1/2).
"""
import numpy as np


def _p1(data, epsilon):
    c = np.asarray(data, dtype=np.int64)
    r = int(c[0] + c[1])
    v = c[1] / r
    b = 1.0 / (r * epsilon)
    return v + 0.5 * b * (np.exp(-v / b) - np.exp(-(1.0 - v) / b)), bool(c[0] == c[1])


def agnostic(data, *, rng, epsilon, alpha, beta, N, d):
    p, tie = _p1(data, epsilon)
    if tie:
        return np.int8(rng.integers(0, 2))
    return np.int8(rng.random() < p)


def agnostic_batch(data, n, *, rng, epsilon, alpha, beta, N, d):
    p, tie = _p1(data, epsilon)
    if tie:
        return rng.integers(0, 2, size=n).astype(np.int8)
    return (rng.random(n) < p).astype(np.int8)


agnostic.batch = agnostic_batch
