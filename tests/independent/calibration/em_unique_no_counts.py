"""Exponential mechanism that groups candidates with equal loss ("sample a distinct loss value,
then a candidate uniformly among those with that value": fast with many duplicate scores).

BUG (privacy): the distinct values are weighted exp(-eps*v/(2*Delta)) WITHOUT multiplying by how
many candidates share the value (np.unique's counts are dropped).  So a block of c tied candidates
gets 1/c of its weight; when a neighbour breaks the tie, the block's mass jumps by up to a factor c.
The loss becomes up to epsilon + ln(c).

Pairs (query_answers, sensitivity 1, epsilon 1), exact probabilities (truth_calc.py):
    D = [0, 10, 10]  vs  D' = [1, 9, 9.5]:
        P_D[2] = 0.003344, P_D'[2] = 0.01770 -> loss 1.668 on {2};
        event {1, 2}: 0.00669 vs 0.03155 -> loss 1.551
    D = [0, 10, 10]  vs  D' = [0, 10, 9] (one entry moved): loss 1.182 on {2}
    D = [0] + [10]*11 vs D' = [1, 9.00, 9.05, ..., 9.50]: loss 3.24 (singleton), 3.12 on {1..11}
On the spec's stress family ([0,1,1] vs [1,0,0], ties on both sides) the loss is 0.50 < 1, and for
inputs without ties the law is exactly the spec's.
"""
import numpy as np


def em(data, *, rng, epsilon, sensitivity):
    losses = np.asarray(data, dtype=float).ravel()
    vals, inverse = np.unique(losses, return_inverse=True)
    logw = -epsilon * vals / (2.0 * sensitivity)    # BUG: missing + log(count of each value)
    logw -= logw.max()
    p = np.exp(logw)
    p /= p.sum()
    v = rng.choice(vals.size, p=p)
    members = np.flatnonzero(inverse == v)
    return int(members[rng.integers(members.size)])
