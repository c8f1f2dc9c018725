"""Sparse vector A_sparseVec (seed 000 Algorithm 1) with a halting counter on the EXACT answers.

lam = sqrt(32 T ln(1/delta))/epsilon; w_hat = w + Lap(lam), re-drawn after every bottom; each query
answered top (1) if q_i + Lap(2 lam) > w_hat, else bottom (0). The bug: the cutoff counter c is meant
to count "unstable" queries, and the author increments it for every query whose exact answer is at or
below the public threshold (q_i <= w, the set L of Theorem 2.8 with alpha = 0), not for every noisy
bottom. The run halts (-1 for the rest) once c > T. Per call only, no batch sampler.

TRUTH (privacy-bug, infinite loss at the default point epsilon = 1, delta = 1e-6, T = 1, w = 0, m = 5):
D = [0.5]*5 vs D' = [-0.5]*5 (every answer moves by 1). On D no answer is <= w, c stays 0 and the
run never halts: P_D[out[2] = -1] = 0. On D' queries 1 and 2 both increment c, so c = 2 > T and
queries 3..5 are -1 with probability 1. Loss infinite; delta needed 1 (any pair whose answers cross
w works: [0]*5 vs [1]*5 the same). Exact, by the control flow.
"""
import math

import numpy as np


def svt(data, *, rng, epsilon, delta, T, w):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon
    out = np.full(q.size, -1, dtype=np.int8)
    c = 0
    w_hat = w + rng.laplace(0.0, lam)
    for i in range(q.size):
        if c > T:
            break
        if q[i] + rng.laplace(0.0, 2.0 * lam) > w_hat:
            out[i] = 1
        else:
            out[i] = 0
            w_hat = w + rng.laplace(0.0, lam)
        if q[i] <= w:          # unstable query (exact answer at or below the threshold)
            c += 1
    return out
