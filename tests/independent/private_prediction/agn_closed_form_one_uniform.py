"""agnostic_private_prediction_corrected -- VALID VARIANT (closed-form sampler).

What it is: Corollary 1 (paper 002). Only the bit is released, so its law is
Bernoulli(P1(v)) with P1(v) = E[clip(v + xi, 0, 1)], xi ~ Lap(b), b = 1/(r eps).
For v in [0, 1]:
  E[clip(v+xi)] = v + E[(-(v+xi))_+] - E[(v+xi-1)_+]
                = v + (b/2) e^{-v/b} - (b/2) e^{-(1-v)/b}
(E[(xi - t)_+] = (b/2) e^{-t/b} for t >= 0). The variant draws ONE uniform and
returns 1[u < P1(v)] instead of drawing the Laplace and then the coin.

TRUTH: same output law as the spec's algorithm (exact identity above), so
eps-DP with exact loss on output 1 for v = 0 -> 1/r equal to the spec's
loss_rounded_extreme = 0.861995 <= 1. Own Monte Carlo at v = 0.05 and v = 0:
two-step sampler vs closed form agree (see REPORT.md).
"""
import numpy as np


def _p1(data, epsilon):
    c = np.asarray(data, dtype=np.int64).ravel()
    r = int(c[0] + c[1])
    v = c[1] / r
    b = 1.0 / (r * epsilon)
    p = v + 0.5 * b * (np.exp(-v / b) - np.exp(-(1.0 - v) / b))
    return float(min(1.0, max(0.0, p)))


def agnostic(data, *, rng, epsilon, **params):
    return int(rng.random() < _p1(data, epsilon))


def _batch(data, n, *, rng, epsilon, **params):
    return (rng.random(n) < _p1(data, epsilon)).astype(np.int8)


agnostic.batch = _batch
