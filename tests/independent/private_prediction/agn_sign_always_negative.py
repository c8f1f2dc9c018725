"""agnostic_private_prediction_corrected -- BUG (privacy): one-sided noise from an
off-by-one in rng.integers.

What it is: Corollary 1 (paper 002): v = c_1/r, xi ~ Lap(1/(r eps)), output 1 w.p.
clip(v + xi, 0, 1). The Laplace draw is written as a random sign times an
exponential, sign = 2*rng.integers(0, 1) - 1, but numpy's `high` is exclusive, so
the sign is always -1 and xi = -Exp(b) (never positive).

TRUTH (eps = 1, r = 20, b = 0.05): P[1 | v] = E[max(0, v - E)], E ~ Exp(b):
  v = 0   (counts [20, 0]) : P[1] = 0 exactly
  v = 1/20 (counts [19, 1]): P[1] = v - b (1 - e^{-v/b}) = 0.05 - 0.05*(1 - e^-1) = 0.018394
One vote moves: output 1 has probability 0 vs 0.0184 -> infinite privacy loss
(pure eps-DP claim eps = 1 broken; delta needed >= 0.0184). Own Monte Carlo: see
REPORT.md (2e6 draws: 0 vs 0.01838).
"""
import numpy as np


def _p(data, epsilon):
    c = np.asarray(data, dtype=np.int64).ravel()
    r = int(c[0] + c[1])
    return c[1] / r, 1.0 / (r * epsilon)


def agnostic(data, *, rng, epsilon, **params):
    v, b = _p(data, epsilon)
    sign = 2 * rng.integers(0, 1) - 1          # BUG: always -1
    xi = sign * rng.exponential(b)
    p1 = min(1.0, max(0.0, v + xi))
    return int(rng.random() < p1)


def _batch(data, n, *, rng, epsilon, **params):
    v, b = _p(data, epsilon)
    sign = 2 * rng.integers(0, 1, size=n) - 1  # BUG: always -1
    xi = sign * rng.exponential(b, size=n)
    p1 = np.clip(v + xi, 0.0, 1.0)
    return (rng.random(n) < p1).astype(np.int8)


agnostic.batch = _batch
