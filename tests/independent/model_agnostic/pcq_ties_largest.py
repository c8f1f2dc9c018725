"""private_classification_queries (seed 000 Sec. 4.1 instance of Algorithm 4): for each row of chunk votes,
mode and printed dist = max(0, top - runner-up - 1); A_OQR with lam = sqrt(32 T ln(2/delta))/epsilon,
w = 2 lam ln(2m/delta), threshold w_hat = w + Lap(lam) re-drawn after every bottom, fresh query noise
Lap(2 lam); release the mode when dist + noise > w_hat, else bottom (-1) and c += 1; loop while c <= T,
rows after the halt -2. Per call only, no batch sampler.

TIE-RULE VARIANT (group valid-variant per the brief; the spec itself pins "ties towards the smallest
label", so strictly it differs from the spec): the mode's ties go to the LARGEST label
(mode = L - 1 - argmax(row reversed)). Only rows whose top count is shared are affected, and there
dist = 0, so the difference is which tied label is released in the rare release event (probability
S(w) = leak_exact = 8.3e-5 per such row at the defaults).

TRUTH: privacy is exactly the spec mechanism's up to relabelling. Reversing the label order maps this
mechanism on votes V to the spec's on V reversed (and back on the output labels); the reversal maps
neighbours (one vote moved) to neighbours, so every pair's privacy loss equals the spec mechanism's loss
on the reversed pair: (8, 1e-3)-DP whenever the spec's is. The law differs from the spec's only on
tied rows: on tie_break_exposure's D' = [[c+1, c+1], ...] (c = ceil(w) + ceil(20 lam)) label 1 instead
of 0 is released with probability S(w) = 8.33e-5 (the author's script, not kept, exact by quadrature).
"""
import math

import numpy as np


def pcq(data, *, rng, epsilon, delta, T, m):
    V = np.atleast_2d(np.asarray(data, dtype=np.int64))
    L = V.shape[1]
    lam = math.sqrt(32 * T * math.log(2 / delta)) / epsilon
    w = 2 * lam * math.log(2 * m / delta)
    out = np.full(V.shape[0], -2, dtype=np.int64)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i in range(V.shape[0]):
        if c > T:
            break
        row = V[i]
        mode = L - 1 - int(np.argmax(row[::-1]))          # ties -> largest label
        top = int(row[mode])
        runner = int(np.max(np.delete(row, mode))) if L > 1 else 0
        dist = max(0, top - runner - 1)
        if dist + rng.laplace(0.0, 2 * lam) > w_hat:
            out[i] = mode
        else:
            out[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return out
