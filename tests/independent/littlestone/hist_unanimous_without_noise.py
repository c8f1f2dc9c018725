"""stable_histogram, BUG: early return on a degenerate input: when every item of the list is the same
id, the code returns that id with estimate 1.0 directly ("the histogram is trivially {x: 1}"), with
no noise and no threshold.

Kind: early return on a degenerate (unanimous) input.

TRUTH (exact): n = 10, delta = 0.02, eps = 1 (tau = 1 + 2 ln 50 = 8.824, b = 2):
D = [0]*10 -> output {(0, 1.0)} with probability 1.
D' = [0]*9 + [1]: item 0 has count 9: released iff 9 + Lap(2) >= 8.824 (prob 1 - 0.5 e^{-0.088} = 0.542),
with a_0 = 1 iff 9 + Lap(2) >= 10 (prob 0.5 e^{-0.5} = 0.3033); item 1 released w.p. delta/2 = 0.01.
Event 'item 0 not released': P_D = 0, P_D' = 0.458 -> infinite loss, delta(1) >= 0.458 >> 0.02.
Event 'output exactly {(0,1.0)}': P_D = 1, P_D' = 0.3033*0.99 = 0.300 -> loss ln(1/0.300) = 1.20,
delta(1) >= 1 - e*0.300 = 0.184.
At the default n = 500, delta = 1e-6: D = [0]*500 vs D' = [0]*499 + [1]: P_D'[a_0 = 1] = 0.3033,
delta(1) >= 1 - e*0.3033 = 0.176 >> 1e-6.
"""
import numpy as np


def hist(data, *, rng, epsilon, delta, eta, beta, n):
    x = np.asarray(data).astype(np.int64).ravel()
    N = x.size
    out = np.zeros((N, 2), dtype=np.float64)
    out[:, 0] = -1.0
    items, counts = np.unique(x, return_counts=True)
    if items.size == 1:                        # BUG: unanimous shortcut, no noise
        out[0] = (float(items[0]), 1.0)
        return out
    tau = 1.0 - (2.0 / epsilon) * np.log(delta)
    noisy = counts + rng.laplace(0.0, 2.0 / epsilon, size=counts.size)
    keep = noisy >= tau
    j = 0
    for it, c in zip(items[keep], noisy[keep]):
        out[j] = (float(it), min(1.0, c / N))
        j += 1
    return out
