"""averaged_learner_corrected -- BUG (theorem: Lemma 2 stability), triggered only when r is not a
power of two.

A' is computed with a recursive "numerically stable" pairwise mean:
    mean(x) = (mean(x[:h]) + mean(x[h:])) / 2,  h = len(x) // 2
which is the exact mean only when both halves always have equal length, i.e. r = 1, 2, 4, 8, ...
For other r the blocks get unequal weights: r = 3 -> weights (1/2, 1/4, 1/4); r = 6 -> (1/4, 1/8,
1/8, 1/4, 1/8, 1/8); r = 5 -> (1/4, 1/4, 1/6, 1/6, 1/6).

TRUTH: at the spec's default r = 4 the output equals the mean (weights 1/4 each): no violation.
At r = 3, gamma = 1: moving data[0] by gamma moves the output by gamma/2 = 0.5 > gamma/r = 0.333
(Lemma 2 stability broken by a factor 1.5); at r = 6: 0.25 > 0.1667; at r = 5: 0.25 > 0.2.
Also the output differs from (1/r) sum data (block-average conformance) whenever r is not a power
of two.  MC (verify_avg_pairwise.py): 100,000 random (data, one-entry move by <= gamma) pairs at
r = 3: max move 0.5000 (claim 0.3333), 11.1% of random moves (uniform shift in [-1,1]) exceed gamma/r; r = 4: max 0.2500, 0%; r = 5: 0.2499 vs 0.2; r = 6: 0.2500 vs 0.1667.
"""
import numpy as np


def _pairwise_mean(x):
    if len(x) == 1:
        return float(x[0])
    h = len(x) // 2
    return (_pairwise_mean(x[:h]) + _pairwise_mean(x[h:])) / 2.0


def averaged(data, *, rng=None, **params):
    x = np.asarray(data, dtype=float).ravel()
    return _pairwise_mean(x)
