"""Exponential mechanism by rejection sampling from the uniform proposal -- VALID variant (per call).

Repeat: draw i uniformly from {0..K-1} and U ~ Uniform(0,1); accept i when
log U < -epsilon*(loss_i - min_j loss_j)/(2*sensitivity), i.e. with probability w_i / w_max where
w_i = exp(-epsilon*loss_i/(2*sensitivity)) and w_max = max_j w_j (the candidate of least loss).
One trial returns i with probability (1/K) w_i/w_max; conditioning on acceptance gives
P[i] = w_i / sum_j w_j, exactly the spec's law (min_j loss_j only normalises, it cancels).
The argmin candidate is accepted with probability 1, so the expected number of trials is
K w_max / sum_j w_j <= K.
"""
import math

import numpy as np


def em(data, *, rng, epsilon, sensitivity):
    losses = np.asarray(data, dtype=float).ravel()
    logw = -epsilon * (losses - losses.min()) / (2.0 * sensitivity)
    k = losses.size
    while True:
        i = int(rng.integers(k))
        if math.log(rng.random() or 5e-324) < logw[i]:
            return i
