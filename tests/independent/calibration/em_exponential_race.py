"""Exponential mechanism -- VALID VARIANT: an exponential race (the first arrival of independent clocks).

Candidate i gets a clock E_i / w_i with E_i ~ Exp(1) i.i.d. and w_i = exp(-epsilon loss_i/(2 sensitivity));
the earliest clock wins.  E_i / w_i ~ Exp(rate w_i), and the minimum of independent exponentials is attained
at i with probability w_i / sum_j w_j: exactly the spec's law.  In log space (argmin of log E_i + epsilon
loss_i/(2 sensitivity)), so no weight underflows; ties have probability 0.  One call at a time, no .batch.

TRUTH: P[i] = exp(-eps loss_i/(2 sens)) / sum_j exp(-eps loss_j/(2 sens)) exactly: must pass.
"""
import numpy as np


def em(data, *, rng, epsilon, sensitivity, **_):
    loss = np.asarray(data, dtype=float).ravel()
    arrival = np.log(rng.standard_exponential(size=loss.size)) + epsilon * loss / (2.0 * sensitivity)
    return int(np.argmin(arrival))
