"""Sparse vector, Lyu-Su-Li Algorithm 1 -- PRIVACY BUG: the threshold noise is drawn inside the loop.

Written as one would from Figure 1: top iff q_i + nu_i >= T + rho, with rho = Lap(1/eps1) and
nu_i = Lap(2c/eps2), abort after c tops -- but `threshold + rng.laplace(0, 1/eps1)` sits inside the
comparison, so rho is re-drawn for every query.  Every query then becomes an independent noisy
comparison and bottoms are no longer free (each costs up to the tail ratio of nu - rho), so the loss
grows with the number of bottoms.  One call at a time, no .batch (a typical loop).

TRUTH (exact, 1-D quadrature per query; the author's script, not kept), eps = 1, c = 1, T = 0
(the spec's default point): on the spec's stress pair rest_up_last_down_m10 ([0]*10 vs [1]*9 + [-1]) the
transcript (bottom x9, top) has P = 9.766e-4 vs 1.633e-4: loss 1.789 > 1 (spec's Algorithm 1: 0.991);
all_shift_m10 ([0]*10 vs [1]*10), all bottom: the same 1.789 (spec: 0.499); last_above_m10: 1.761.
At eps = 4, c = 1: all_shift_m10 all bottom, P = 9.766e-4 vs 3.0e-7, loss 8.088 against 4.
At eps = 0.5, c = 2 (the spec's audit point): 0.512 against 0.5 (barely: not a detectable excess).
"""
import numpy as np


def svt(data, *, rng, epsilon, threshold, c):
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    answers = np.asarray(data, dtype=float).ravel()
    out = np.full(answers.shape[0], -1, dtype=np.int8)
    tops = 0
    for i, q in enumerate(answers):
        if q + rng.laplace(0.0, 2.0 * c / eps2) >= threshold + rng.laplace(0.0, 1.0 / eps1):
            out[i] = 1
            tops += 1
            if tops >= c:
                break
        else:
            out[i] = 0
    return out
