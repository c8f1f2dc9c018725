"""Exponential mechanism that rounds the losses to integers (half to even) before exponentiating.

The author expects error counts, and rounds the losses with np.rint "to clean up float noise". np.rint rounds
halves to even (0.5 -> 0, 1.5 -> 2), so two losses 1 apart can end up 2 apart.

Truth (privacy bug): at the defaults (epsilon = 1, sensitivity = 1), D = [0.5, 1.5, 1.5] and
D' = [1.5, 0.5, 0.5] (every loss moves by 1). Rounded: [0, 2, 2] and [2, 0, 0]. P_D(0) = 1/(1 + 2e^-1) =
0.5761, P_D'(0) = e^-1/(e^-1 + 2) = 0.1554: loss ln(3.708) = 1.3106 > 1 (exact, closed form). The spec's
mechanism on the same pair has loss 0.664. On integer losses the rounding does nothing.
"""
import numpy as np


def em(data, *, rng, epsilon, sensitivity, **_):
    loss = np.rint(np.asarray(data, dtype=float))
    logits = -epsilon * loss / (2 * sensitivity)
    p = np.exp(logits - logits.max())
    p /= p.sum()
    return int(min(np.searchsorted(np.cumsum(p), rng.random(), side="right"), p.size - 1))
