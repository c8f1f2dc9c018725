"""Randomized response -- PRIVACY BUG: the keep probability of the flip form used in the forced-response form.

Two textbook forms of randomized response: (a) report the bit with probability e^eps/(1 + e^eps), else its
flip (the spec); (b) "forced response": report the bit with probability q, else a fair coin, which is
eps-DP for q = (e^eps - 1)/(e^eps + 1).  This file writes form (b) with form (a)'s probability
p = e^eps/(1 + e^eps).  One call at a time, no .batch.

TRUTH (closed form; the author's script, not kept): P[out = b | bit b] = (1 + p)/2,
P[out = b | bit 1 - b] = (1 - p)/2; the only pair 0 vs 1, event {output = 0}: loss
ln((1 + p)/(1 - p)) = ln(1 + 2 e^eps) = 1.862 against 1 at the default (P 0.866 vs 0.134),
1.458 against 0.5, 3.718 against 3 at the audit points; 1.141 against 0.0625 at eps = 1/16.
"""
import math


def rr(data, *, rng, epsilon):
    bit = int(data)
    p_truth = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    if rng.random() < p_truth:
        return bit
    return int(rng.integers(0, 2))
