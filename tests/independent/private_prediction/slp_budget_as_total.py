"""Laplace prediction of a gamma-stable learner (seed 002 Theorem 3, Lemma 4 for several queries), with
the per-call budget misread.

For one prediction A(S, x) the output is A(S, x) + Lap(gamma/epsilon). For an array of q predictions the
author reads the spec's claim 'epsilon = q*epsilon' as the epsilon to calibrate with, and draws every
answer's noise at scale gamma/(q epsilon) (fresh and independent per answer). Per call only.

TRUTH (privacy-bug): q = 1 (a scalar or a length-1 array) is exactly the spec's mechanism. For q answers
each is (q epsilon)-DP, so the q-answer release costs q^2 epsilon against the claim q epsilon. At the
default epsilon = gamma = 1 with q = 2: (0, 0) vs (1, 1) (every prediction moves by gamma) has loss
exactly 4 (each coordinate's density ratio is e^(2 |shift|/gamma), attained on the outputs above both
means) against the claim 2; q = 3: 9 against 3. Exact (closed form).
"""
import numpy as np


def predict(data, *, rng, epsilon, gamma):
    a = np.asarray(data, dtype=np.float64)
    q = max(1, a.size)
    out = a + rng.laplace(0.0, gamma / (q * epsilon), size=a.shape)
    return float(out) if out.ndim == 0 else out
