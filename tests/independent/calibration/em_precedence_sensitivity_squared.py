"""exponential_mechanism, BUG: operator precedence: the exponent is written
-epsilon / 2 * sensitivity * loss  (= -(epsilon*sensitivity/2)*loss)  instead of
-epsilon * loss / (2 * sensitivity).

Kind: precedence slip that is invisible at sensitivity = 1 (the default), wrong in another regime.

TRUTH (exact): equivalent to the correct mechanism at epsilon_eff = epsilon*sensitivity^2.
At the audit point epsilon = 0.5, sensitivity = 2: epsilon_eff = 2 (4x).
Pair swap_two: D = [0, 2, 2] vs D' = [2, 0, 2], output 0: weights exp(-loss/2):
P_D(0) = 1/(1 + 2e^-1) = 0.5761, P_D'(0) = e^-1/(1 + 2e^-1) = 0.2119, loss = 1.0 against the claim 0.5.
Pair one_up_rest_down_k3: D = [0, 2, 2] vs D' = [2, 0, 0]: P_D(0) = 0.5761, P_D'(0) = e^-1/(e^-1 + 2) = 0.1554,
loss = ln(0.5761/0.1554) = 1.310 against 0.5.
At sensitivity = 1 (defaults, eps = 3 point) the law is exactly the spec's.
"""
import numpy as np


def em(data, *, rng, epsilon, sensitivity):
    loss = np.asarray(data, dtype=float).ravel()
    logits = -epsilon / 2 * sensitivity * loss        # BUG: precedence
    logits -= logits.max()
    p = np.exp(logits)
    p /= p.sum()
    return int(rng.choice(loss.size, p=p))
