"""bounded_sum, BUG: when every record is integral-valued the noisy sum is rounded to an integer
("integer data gives an integer count", mimicking diffprivlib's integer path but deciding it from the
VALUES of the data instead of the public dtype).

Kind: data-dependent post-processing (a branch on a property of the private values).

TRUTH: on D = [0]*10 vs D' = [0.5] + [0]*9 (defaults eps=1, lower=0, upper=1, n=10; replace_one),
the event 'output is an integer' has probability 1 on D and 0 on D' (the continuous Laplace
never lands on an integer): infinite privacy loss, delta(eps) = 1 for every eps.
On pairs where both sides are integral (all stress cases) the output is round(sum + Lap(1)), which is
post-processing of the correct mechanism (private), but its law differs from Fact BS2 (a lattice law).
"""
import numpy as np


def bsum(data, *, rng, epsilon, lower, upper, n):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    out = x.sum() + rng.laplace(0.0, (upper - lower) / epsilon)
    if np.all(x == np.round(x)):      # BUG: integrality read from the private values
        out = float(np.round(out))
    return float(out)
