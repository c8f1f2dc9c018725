"""DIFFERS (post-processing, private): agnostic_private_prediction_corrected that replaces the randomized rounding
by a threshold: output 1 iff v + xi > 1/2, xi ~ Lap(1/(r eps)) (no coin).

TRUTH: privacy holds: the output is a function of v + xi, the Laplace mechanism on v (sensitivity 1/r), so it is
epsilon-DP (exact loss on [10, 10] ~ [11, 9] at epsilon 1, r 20: P[1] = 1/2 against P[Lap(0.05) > 0.05] = e^-1/2,
loss 1.0 = epsilon, the claim; no pair exceeds it). The law differs from the spec's: P[1 | v] = P[xi > 1/2 - v]
against P1(v) = v + (b/2)(e^(-v/b) - e^(-(1-v)/b)); e.g. v = 0.3: 0.0092 against 0.3009.
Expected: differs from the spec (exit 3) by a law/calibration check; pass would be a (mild) miss.
"""
import numpy as np


def agnostic(data, *, rng, epsilon):
    c = np.asarray(data).ravel()
    r = int(c[0]) + int(c[1])
    v = int(c[1]) / r
    return int(v + rng.laplace(0.0, 1.0 / (r * epsilon)) > 0.5)


def agnostic_batch(data, n, *, rng, epsilon):
    c = np.asarray(data).ravel()
    r = int(c[0]) + int(c[1])
    v = int(c[1]) / r
    return (v + rng.laplace(0.0, 1.0 / (r * epsilon), size=n) > 0.5).astype(np.int8)


agnostic.batch = agnostic_batch
