"""VALID (stable_histogram): Hist with an equal-in-law "release first, then the conditional tail" sampler, per call only.

What it is: for each occurring item with count c, let t = tau - c.  The spec releases iff c + L >= tau,
L ~ Lap(b), b = 2/eps, and reports c~ = c + L.  Here: first a coin with P[release] = P[L >= t]
(0.5 e^(-t/b) if t >= 0, else 1 - 0.5 e^(t/b)); if released, c~ is drawn from the law of c + L given L >= t:
  t >= 0: c~ = tau + Exp(b) (memorylessness);
  t <  0: with probability 0.5/P[L >= t] L = Exp(b), else L in [t, 0): L = b ln(1 - V (1 - e^(t/b))).
Estimates a = min(1, c~/n), rows in ascending id order, padding (-1, 0).  No .batch.
TRUTH: the law of (released set, c~) is exactly the spec's (same joint law item by item, items independent);
privacy = the spec's (eps, delta).  Expected: pass (exit 0).
"""
import math

import numpy as np


def hist_condtail(data, *, rng, epsilon, delta, **params):
    ids = np.asarray(data, dtype=np.int64).ravel()
    n = ids.size
    items, counts = np.unique(ids, return_counts=True)
    b = 2.0 / epsilon
    tau = 1.0 - (2.0 / epsilon) * math.log(delta)
    out = np.zeros((n, 2), dtype=np.float64)
    out[:, 0] = -1.0
    row = 0
    for it, c in zip(items.tolist(), counts.tolist()):
        t = tau - c
        if t >= 0:
            prel = 0.5 * math.exp(-t / b)
            if rng.random() >= prel:
                continue
            noisy = tau + rng.exponential(b)
        else:
            prel = 1.0 - 0.5 * math.exp(t / b)
            if rng.random() >= prel:
                continue
            if rng.random() < 0.5 / prel:
                L = rng.exponential(b)
            else:
                v = rng.random()
                L = b * math.log(1.0 - v * (1.0 - math.exp(t / b)))
            noisy = c + L
        out[row, 0] = float(it)
        out[row, 1] = min(1.0, noisy / n)
        row += 1
    return out
