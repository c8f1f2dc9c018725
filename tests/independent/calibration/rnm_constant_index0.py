"""report_noisy_max -- BUG (constant-input shortcut returns index 0 without noise).

What it is: Report Noisy Max with Lap(2/eps) noise, but when every answer is equal the
code "knows" there is no maximum to find and returns the first index (what np.argmax of
the exact answers returns) without drawing noise.

TRUTH: infinite privacy loss. eps = 1, k = 3: D = [0, 0, 0] gives index 0 with
probability 1; its neighbour D' = [0, 1, 0] (one answer moved by 1) gives index 1 with
probability P[1 + L1 > max(L0, L2)] = 0.4642 (Monte Carlo, 1e6 runs, L ~ Lap(2);
the file itself: 0.4641 over 2e5 calls), and 0 on D (0 of 2e4 calls).
Any constant answer vector triggers it; non-constant inputs get the exact law.
"""
import numpy as np


def rnm(data, *, rng, **params):
    eps = float(params["epsilon"])
    q = np.asarray(data, dtype=float).ravel()
    if q.size == 1 or np.all(q == q[0]):
        return 0                                  # BUG: no noise on constant input
    noisy = q + rng.laplace(0.0, 2.0 / eps, size=q.size)
    return int(np.argmax(noisy))
