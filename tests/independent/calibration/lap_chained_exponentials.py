"""BUG (expected class: claim violated, exit 1). laplace_mechanism.

"Draw-saving" noise: Lap(b) = b*(E1 - E2) for E1, E2 i.i.d. Exp(1); the implementer
draws p+1 exponentials once and uses the overlapping differences
noise_i = b*(E_i - E_{i+1}). Every coordinate's MARGINAL is exactly Lap(b), and for
p = 1 the mechanism is exactly the spec's. For p >= 2 the coordinates are correlated
(a chain), and the joint density of the noise is prop. to
exp(-((p+1) max_j S_j - sum_j S_j)), S_j = partial sums of noise/b (S_0 = 0): a
shift of the LAST coordinate by gamma changes the log-density by up to p*epsilon.
Pair (epsilon = gamma = 1, p = 2): f = [0, 0] vs f' = [0, 1] (L1 distance 1):
log-density of y is 2y_0 + y_1 - 3 max(0, y_0, y_0 + y_1) (+const), so p_f'(y)/p_f(y)
= e^2 exactly wherever y_1 >= 1 and y_0 + y_1 >= 1. Event {y_1 >= 2, y_0 + y_1 >= 2}:
P_f = 0.0061, P_f' = 0.0451 (MC, 1e6), loss 2.00 > 1 (correct Laplace: 1.00).
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float).reshape(-1)
    b = gamma / epsilon
    e = rng.exponential(1.0, size=f.size + 1)
    return f + b * (e[:-1] - e[1:])


def _batch(data, n, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float).reshape(-1)
    b = gamma / epsilon
    e = rng.exponential(1.0, size=(n, f.size + 1))
    return f[None, :] + b * (e[:, :-1] - e[:, 1:])


laplace.batch = _batch
