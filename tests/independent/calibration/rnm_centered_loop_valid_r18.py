"""report_noisy_max, valid variant: per-call loop; Laplace as a difference of exponentials, noise centred.

Each noise is E1 - E2 with E1, E2 ~ Exp(2/epsilon) (exactly Lap(2/epsilon)).  The noise vector is
then centred (its mean subtracted, "for numerical stability"): argmax is invariant to subtracting one
common constant from every score, so the released index has exactly the spec's law.  No batch.
"""
import numpy as np


def rnm(data, *, rng, epsilon):
    b = 2.0 / epsilon
    best, best_i = -np.inf, 0
    q = [float(v) for v in np.asarray(data, dtype=float)]
    noise = [rng.exponential(b) - rng.exponential(b) for _ in q]
    mu = sum(noise) / len(noise)
    for i, (qi, zi) in enumerate(zip(q, noise)):
        s = qi + (zi - mu)
        if s > best:
            best, best_i = s, i
    return best_i
