"""stable_laplace_prediction, BUG: branch on the epsilon regime swaps Laplace for Gaussian.

"For large epsilon the Laplace tails are needlessly heavy": for epsilon > 2 the developer
adds Gaussian noise with the SAME VARIANCE as Lap(gamma/epsilon), i.e. sigma = sqrt(2) gamma/epsilon;
for epsilon <= 2 (the default point epsilon = 1) it is the correct Laplace mechanism.

TRUTH: at epsilon <= 2 valid.  At epsilon > 2 the pure-epsilon loss is unbounded (Gaussian
shift).  Exact, at the stress case W3_shift_by_gamma_eps4 (epsilon = 4, gamma = 1, prediction
0 vs 1): sigma = 0.35355; event {out > 2}: P_D' = Q((2-1)/sigma) = Q(2.828) = 2.34e-3,
P_D = Q(5.657) = 7.7e-9: log ratio 12.6 vs claim 4.  Event {out > 1.5}: Q(1.414) = 0.0786
vs Q(4.243) = 1.10e-5 -> 8.9 vs 4.  (Privacy loss random variable has no finite sup.)
"""
import numpy as np


def stable_laplace_prediction(data, *, rng, epsilon, gamma, q, L_l, sigma):
    a = np.asarray(data, dtype=np.float64)
    b = float(gamma) / float(epsilon)
    if epsilon > 2.0:
        out = a + rng.normal(0.0, np.sqrt(2.0) * b, size=a.shape)
    else:
        out = a + rng.laplace(0.0, b, size=a.shape)
    if out.ndim == 0:
        return float(out)
    return out
